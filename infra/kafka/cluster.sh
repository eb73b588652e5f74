#!/usr/bin/env bash
# Runs a three-node Apache Kafka (KRaft) cluster on 127.0.0.1 without Docker: every node is a
# broker and a controller, topics get replication 3 with min.insync.replicas 2, so one node can
# be stopped while writes with acks=all go on. The jars are kafka.sh's (fetched through ./pom.xml).
# See ./README.md.
#
#   cluster.sh start | stop | status | clean | stop-node N | kill-node N | start-node N
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LIB="$HERE/.work/lib"

CLUSTER_DIR="${KAFKA_CLUSTER_DIR:-${TMPDIR:-/tmp}/hearth-kafka-cluster}"
BROKER_PORT="${KAFKA_CLUSTER_PORT:-19092}"                # node N listens on BROKER_PORT + N - 1
CONTROLLER_PORT="${KAFKA_CLUSTER_CONTROLLER_PORT:-19192}" # node N's controller on CONTROLLER_PORT + N - 1
HEAP_OPTS="${KAFKA_CLUSTER_HEAP_OPTS:--Xms128m -Xmx384m}"
START_TIMEOUT="${KAFKA_START_TIMEOUT:-120}"
STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"                  # stop-node
CLUSTER_STOP_TIMEOUT="${KAFKA_CLUSTER_STOP_TIMEOUT:-15}"  # stop: the last node has no quorum to finish with

NODES=(1 2 3)
HOST=127.0.0.1
MARKER="$CLUSTER_DIR/.hearth-kafka-cluster" # `clean` only deletes a dir that has this file
CLUSTER_ID_FILE="$CLUSTER_DIR/cluster.id"

if [[ -n "${JAVA_HOME:-}" ]]; then JAVA="$JAVA_HOME/bin/java"; else JAVA="java"; fi

log() { echo "cluster.sh: $*"; }
die() { echo "cluster.sh: $*" >&2; exit 1; }

broker_port() { echo $((BROKER_PORT + $1 - 1)); }
controller_port() { echo $((CONTROLLER_PORT + $1 - 1)); }
node_dir() { echo "$CLUSTER_DIR/node-$1"; }
bootstrap() {
  local n out=()
  for n in "${NODES[@]}"; do out+=("$HOST:$(broker_port "$n")"); done
  (IFS=,; echo "${out[*]}")
}
voters() {
  local n out=()
  for n in "${NODES[@]}"; do out+=("$n@$HOST:$(controller_port "$n")"); done
  (IFS=,; echo "${out[*]}")
}

check_node() { [[ "${1:-}" =~ ^[123]$ ]] || die "node must be 1, 2 or 3 (got '${1:-}')"; }

# The node's PID if it is running (and really is this cluster's node N), else nothing.
running_pid() {
  local pid_file pid
  pid_file="$(node_dir "$1")/kafka.pid"
  [[ -f "$pid_file" ]] || return 1
  pid="$(cat "$pid_file" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "kafka\.Kafka $(node_dir "$1")/server.properties" || return 1
  echo "$pid"
}

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

tool() {
  timeout 40 "$JAVA" -Xmx128m -XX:TieredStopAtLevel=1 -Xshare:auto \
    -Dlog4j2.configurationFile="$CLUSTER_DIR/tools-log4j2.properties" -cp "$LIB/*" "$@"
}

# Brokers that answer ApiVersions and are in the cluster's metadata, unfenced, by node id ("1 2 3").
answering_nodes() {
  local out
  out="$(tool org.apache.kafka.tools.BrokerApiVersionsCommand --bootstrap-server "$(bootstrap)" \
      --command-config "$CLUSTER_DIR/tools.properties" 2>/dev/null)" || return 0
  sed -n 's/^[0-9.]*:[0-9]* (id: \([0-9]*\) rack: [^ ]* isFenced: false).*/\1/p' <<<"$out" | sort -n | tr '\n' ' ' | sed 's/ $//'
}

write_config() {
  local n="$1" dir
  dir="$(node_dir "$n")"
  mkdir -p "$dir/logs" "$dir/data"
  cat >"$dir/server.properties" <<EOF
# Written by infra/kafka/cluster.sh on every start of the node; edits are overwritten.
process.roles=broker,controller
node.id=$n
controller.quorum.voters=$(voters)
controller.listener.names=CONTROLLER
listeners=PLAINTEXT://$HOST:$(broker_port "$n"),CONTROLLER://$HOST:$(controller_port "$n")
advertised.listeners=PLAINTEXT://$HOST:$(broker_port "$n")
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/data

# Three copies of everything; a write with acks=all needs two of them, so one node may be down.
default.replication.factor=3
min.insync.replicas=2
offsets.topic.replication.factor=3
transaction.state.log.replication.factor=3
transaction.state.log.min.isr=2
share.coordinator.state.topic.replication.factor=3
share.coordinator.state.topic.min.isr=2
unclean.leader.election.enable=false

auto.create.topics.enable=true
num.partitions=3
group.initial.rebalance.delay.ms=0

# Keep it light: three JVMs on a 2-core machine.
num.network.threads=2
num.io.threads=2
num.replica.fetchers=1
background.threads=4
log.retention.hours=24
log.segment.bytes=67108864
EOF
}

write_shared_files() {
  mkdir -p "$CLUSTER_DIR"
  touch "$MARKER"
  # The same logging and tool settings as kafka.sh's single broker.
  cp "$HERE/conf/broker-log4j2.properties" "$CLUSTER_DIR/log4j2.properties"
  cp "$HERE/conf/tools-log4j2.properties" "$HERE/conf/tools.properties" "$CLUSTER_DIR/"
}

cluster_id() {
  if [[ ! -s "$CLUSTER_ID_FILE" ]]; then
    tool kafka.tools.StorageTool random-uuid >"$CLUSTER_ID_FILE"
  fi
  cat "$CLUSTER_ID_FILE"
}

format_storage() {
  local n="$1" dir
  dir="$(node_dir "$n")"
  if [[ -f "$dir/data/meta.properties" ]]; then return 0; fi
  log "formatting node $n's storage in $dir/data (cluster id $(cluster_id))"
  tool kafka.tools.StorageTool format -t "$(cluster_id)" -c "$dir/server.properties" >/dev/null
}

tail_log() {
  local dir
  dir="$(node_dir "$1")"
  echo "---- node $1: last lines of $dir/logs/kafka.out" >&2
  tail -n 20 "$dir/logs/kafka.out" >&2 2>/dev/null || true
  echo "---- node $1: last lines of $dir/logs/server.log" >&2
  tail -n 40 "$dir/logs/server.log" >&2 2>/dev/null || true
}

# Starts node N's JVM (no wait). Returns 0 if it was already running.
launch_node() {
  local n="$1" pid dir
  dir="$(node_dir "$n")"
  if pid="$(running_pid "$n")"; then
    log "node $n already running (pid $pid)"
    return 0
  fi
  rm -f "$dir/kafka.pid"
  if port_open "$(broker_port "$n")" || port_open "$(controller_port "$n")"; then
    die "port $(broker_port "$n") or $(controller_port "$n") on $HOST is already in use by another process (set KAFKA_CLUSTER_PORT / KAFKA_CLUSTER_CONTROLLER_PORT)"
  fi
  write_config "$n"
  format_storage "$n"
  # Same JVM flags as Kafka's bin/kafka-server-start.sh, with a small heap.
  # shellcheck disable=SC2086
  setsid "$JAVA" $HEAP_OPTS \
    -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
    -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 -Djava.awt.headless=true \
    -Dkafka.logs.dir="$dir/logs" -Dlog4j2.configurationFile="$CLUSTER_DIR/log4j2.properties" \
    -cp "$LIB/*" kafka.Kafka "$dir/server.properties" \
    </dev/null >"$dir/logs/kafka.out" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/kafka.pid"
  log "started node $n (pid $pid): broker $HOST:$(broker_port "$n"), controller $HOST:$(controller_port "$n")"
}

# Waits until each of the given nodes answers and is in the cluster's metadata.
wait_for_nodes() {
  local t0=$SECONDS n answering missing
  while :; do
    for n in "$@"; do
      if ! running_pid "$n" >/dev/null; then
        tail_log "$n"
        die "node $n exited during startup"
      fi
    done
    answering=" $(answering_nodes) "
    missing=()
    for n in "$@"; do [[ "$answering" == *" $n "* ]] || missing+=("$n"); done
    if ((${#missing[@]} == 0)); then
      log "node(s) $* ready after $((SECONDS - t0)) s (answering: $(echo $answering))"
      return 0
    fi
    if ((SECONDS - t0 >= START_TIMEOUT)); then
      for n in "${missing[@]}"; do tail_log "$n"; done
      die "node(s) ${missing[*]} did not answer within $START_TIMEOUT s (logs in $CLUSTER_DIR/node-N/logs)"
    fi
    sleep 1
  done
}

prepare() {
  bash "$HERE/kafka.sh" fetch >/dev/null
  write_shared_files
}

cmd_start() {
  local n started=()
  prepare
  # A KRaft quorum of three needs two voters to elect a leader: format first, start them together, then wait.
  for n in "${NODES[@]}"; do
    if ! running_pid "$n" >/dev/null; then write_config "$n"; format_storage "$n"; fi
  done
  for n in "${NODES[@]}"; do launch_node "$n"; started+=("$n"); done
  wait_for_nodes "${started[@]}"
  log "cluster ready: KAFKA_BROKERS=$(bootstrap) (data in $CLUSTER_DIR)"
}

cmd_start_node() {
  check_node "$1"
  prepare
  launch_node "$1"
  wait_for_nodes "$1"
}

# stop_node N SIGNAL [TIMEOUT]: TERM is a controlled shutdown (leadership moved away first); KILL is a crash.
stop_node() {
  local n="$1" signal="$2" timeout="${3:-$STOP_TIMEOUT}" pid t0
  if ! pid="$(running_pid "$n")"; then
    rm -f "$(node_dir "$n")/kafka.pid"
    log "node $n not running"
    return 0
  fi
  log "stopping node $n (pid $pid, SIG$signal)"
  t0=$SECONDS
  kill "-$signal" "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS - t0 >= timeout)); then
      log "node $n still running after $timeout s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 1
      break
    fi
    sleep 0.2
  done
  rm -f "$(node_dir "$n")/kafka.pid"
  log "node $n stopped after $((SECONDS - t0)) s"
}

cmd_stop() {
  local n pids=()
  # The last node standing cannot finish its controlled shutdown: that needs a controller quorum,
  # two of the three. Stop them together and end the one left waiting after CLUSTER_STOP_TIMEOUT
  # (its log is recovered on the next start).
  for n in "${NODES[@]}"; do
    if running_pid "$n" >/dev/null; then
      stop_node "$n" TERM "$CLUSTER_STOP_TIMEOUT" &
      pids+=($!)
    else
      log "node $n not running"
    fi
  done
  for n in "${pids[@]}"; do wait "$n" || true; done
}

cmd_status() {
  local n pid running=0 answering
  [[ -f "$LIB/.pom.sha256" && -d "$CLUSTER_DIR" ]] || { log "not running (no jars or no $CLUSTER_DIR)"; return 1; }
  answering=" $(answering_nodes) "
  for n in "${NODES[@]}"; do
    if pid="$(running_pid "$n")"; then
      running=$((running + 1))
      if [[ "$answering" == *" $n "* ]]; then log "node $n: running (pid $pid), answering on $HOST:$(broker_port "$n")"
      else log "node $n: running (pid $pid), NOT answering on $HOST:$(broker_port "$n")"; fi
    else
      log "node $n: stopped"
    fi
  done
  if ((running > 0)); then
    local under
    under="$(tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$(bootstrap)" \
        --command-config "$CLUSTER_DIR/tools.properties" --describe --under-replicated-partitions 2>/dev/null | grep -c 'Partition:' || true)"
    log "under-replicated partitions: ${under:-unknown}"
  fi
  [[ "$answering" == " 1 2 3 " ]]
}

cmd_clean() {
  cmd_stop
  if [[ ! -e "$CLUSTER_DIR" ]]; then log "nothing to clean"; return 0; fi
  [[ -f "$MARKER" ]] || die "$CLUSTER_DIR has no $(basename "$MARKER") marker: not deleting it"
  rm -rf "$CLUSTER_DIR"
  log "deleted $CLUSTER_DIR"
}

usage() {
  cat <<EOF
usage: $(basename "$0") start|stop|status|clean|stop-node N|kill-node N|start-node N

  start         fetch the jars if needed (kafka.sh fetch), format new nodes, start nodes 1-3, wait until all answer
  stop          stop every node (SIGTERM; the last one, left without a quorum, SIGKILL after ${CLUSTER_STOP_TIMEOUT} s); data kept
  status        each node's state and the under-replicated partitions; exit 0 if all three answer
  clean         stop and delete $CLUSTER_DIR
  stop-node N   controlled shutdown of node N (SIGTERM, SIGKILL after ${STOP_TIMEOUT} s): its partitions' leadership moves to the others
  kill-node N   SIGKILL node N: a crash, no controlled shutdown
  start-node N  start node N again and wait until it answers

Brokers: $(bootstrap)   controllers: $(voters)
env: KAFKA_CLUSTER_DIR, KAFKA_CLUSTER_PORT, KAFKA_CLUSTER_CONTROLLER_PORT, KAFKA_CLUSTER_HEAP_OPTS,
     KAFKA_START_TIMEOUT, KAFKA_STOP_TIMEOUT, KAFKA_CLUSTER_STOP_TIMEOUT, JAVA_HOME
EOF
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  clean) cmd_clean ;;
  stop-node) check_node "${2:-}"; stop_node "$2" TERM ;;
  kill-node) check_node "${2:-}"; stop_node "$2" KILL ;;
  start-node) cmd_start_node "${2:-}" ;;
  brokers) bootstrap ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
