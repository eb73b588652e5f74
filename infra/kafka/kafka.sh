#!/usr/bin/env bash
# Runs a one-node Apache Kafka (KRaft) broker on 127.0.0.1 without Docker.
# The broker jars come from Maven Central through ./pom.xml. See ./README.md.
#
#   kafka.sh fetch | start | stop | restart | status | clean
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$HERE/.work"
LIB="$WORK/lib"
STAMP="$LIB/.pom.sha256"

KAFKA_DATA_DIR="${KAFKA_DATA_DIR:-${TMPDIR:-/tmp}/hearth-kafka}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"

HOST=127.0.0.1
BOOTSTRAP="$HOST:$KAFKA_PORT"
PID_FILE="$KAFKA_DATA_DIR/kafka.pid"
LOG_DIR="$KAFKA_DATA_DIR/logs"            # server.log (log4j) and kafka.out (stdout/stderr)
LOG_DIRS="$KAFKA_DATA_DIR/data"           # Kafka's own log.dirs (topics + KRaft metadata)
MARKER="$KAFKA_DATA_DIR/.hearth-kafka"    # `clean` only deletes a dir that has this file

if [[ -n "${JAVA_HOME:-}" ]]; then JAVA="$JAVA_HOME/bin/java"; else JAVA="java"; fi

log() { echo "kafka.sh: $*"; }
die() { echo "kafka.sh: $*" >&2; exit 1; }

check_java() {
  command -v "$JAVA" >/dev/null 2>&1 || die "java not found (set JAVA_HOME or put java 17+ on PATH)"
  local v
  v="$("$JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)"
  [[ -n "$v" && "$v" -ge 17 ]] || die "Kafka 4 needs Java 17+, found: $("$JAVA" -version 2>&1 | head -1)"
}

pom_sum() { sha256sum "$HERE/pom.xml" | cut -d' ' -f1; }

fetched() { [[ -f "$STAMP" && "$(cat "$STAMP")" == "$(pom_sum)" ]]; }

cmd_fetch() {
  if fetched; then return 0; fi
  command -v mvn >/dev/null 2>&1 || die "mvn not found: Maven is needed once to fetch the Kafka jars"
  log "fetching Kafka jars from Maven Central into $LIB"
  mkdir -p "$WORK"
  local tmp="$WORK/lib.tmp.$$" mlog="$WORK/fetch.log" t0=$SECONDS
  rm -rf "$tmp"
  # Debian's Maven 3.8 prints ANSI resets even with -B -q: keep its output in a file, show it on failure.
  if ! mvn -B -q -Dstyle.color=never -f "$HERE/pom.xml" \
      dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp" >"$mlog" 2>&1; then
    cat "$mlog" >&2
    rm -rf "$tmp"
    die "Maven fetch failed"
  fi
  pom_sum >"$tmp/.pom.sha256"
  rm -rf "$LIB"
  mv "$tmp" "$LIB"
  log "fetched $(find "$LIB" -name "*.jar" | wc -l) jars in $((SECONDS - t0)) s"
}

classpath() { echo "$LIB/*"; }

# The broker's PID if it is running (and really is our Kafka), else nothing.
running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'kafka\.Kafka' || return 1
  echo "$pid"
}

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

# A real Kafka round trip: an ApiVersions (v0) request, answered with error code 0. The broker
# opens its client port only once it is unfenced and ready, so this is its readiness. Spoken
# from bash (a JVM admin tool took seconds of CPU per probe, on every start of every broker).
answers() {
  local reply
  # Request: size 15, api key 18 (ApiVersions), version 0, correlation id 7, client id "probe".
  reply="$(
    exec 3<>"/dev/tcp/$HOST/$KAFKA_PORT" || exit 1
    printf '\x00\x00\x00\x0f\x00\x12\x00\x00\x00\x00\x00\x07\x00\x05probe' >&3
    timeout 5 head -c 10 <&3 | od -An -tx1 | tr -d ' \n'
  )" 2>/dev/null || return 1
  # Reply: size (4 bytes), correlation id 7, error code 0.
  [[ $reply =~ ^[0-9a-f]{8}000000070000$ ]]
}

write_config() {
  mkdir -p "$KAFKA_DATA_DIR" "$LOG_DIR" "$LOG_DIRS"
  touch "$MARKER"
  cat >"$KAFKA_DATA_DIR/server.properties" <<EOF
# Written by infra/kafka/kafka.sh on every start; edits are overwritten.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HOST:$KAFKA_CONTROLLER_PORT
controller.listener.names=CONTROLLER
listeners=PLAINTEXT://$HOST:$KAFKA_PORT,CONTROLLER://$HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$KAFKA_PORT
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$LOG_DIRS

# Single node: every internal topic with replication factor 1.
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
default.replication.factor=1
min.insync.replicas=1

auto.create.topics.enable=true
num.partitions=3
group.initial.rebalance.delay.ms=0

# Keep it light (2-core dev machines and CI).
num.network.threads=2
num.io.threads=4
log.retention.hours=24
log.segment.bytes=67108864
EOF
  cp "$HERE/conf/broker-log4j2.properties" "$KAFKA_DATA_DIR/log4j2.properties"
  cp "$HERE/conf/tools-log4j2.properties" "$HERE/conf/tools.properties" "$KAFKA_DATA_DIR/"
}

format_storage() {
  if [[ -f "$LOG_DIRS/meta.properties" ]]; then return 0; fi
  local cluster_id
  # What `StorageTool random-uuid` prints (16 random bytes, base64url, never starting with "-"),
  # without a JVM start of its own.
  cluster_id="-"
  while [[ $cluster_id == -* ]]; do cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"; done
  log "formatting storage in $LOG_DIRS (cluster id $cluster_id)"
  "$JAVA" -Dlog4j2.configurationFile="$KAFKA_DATA_DIR/tools-log4j2.properties" \
      -cp "$(classpath)" kafka.tools.StorageTool format \
      -t "$cluster_id" -c "$KAFKA_DATA_DIR/server.properties" >/dev/null
}

tail_log() {
  echo "---- last lines of $LOG_DIR/kafka.out" >&2
  tail -n 20 "$LOG_DIR/kafka.out" >&2 2>/dev/null || true
  echo "---- last lines of $LOG_DIR/server.log" >&2
  tail -n 40 "$LOG_DIR/server.log" >&2 2>/dev/null || true
}

cmd_start() {
  local pid
  if pid="$(running_pid)"; then
    log "already running (pid $pid) on $BOOTSTRAP"
    return 0
  fi
  check_java
  cmd_fetch
  rm -f "$PID_FILE"
  if port_open "$KAFKA_PORT" || port_open "$KAFKA_CONTROLLER_PORT"; then
    die "port $KAFKA_PORT or $KAFKA_CONTROLLER_PORT on $HOST is already in use by another process"
  fi
  local t0=$SECONDS
  write_config
  format_storage

  # Same JVM flags as Kafka's bin/kafka-server-start.sh, with a small heap.
  # shellcheck disable=SC2086
  setsid "$JAVA" $KAFKA_HEAP_OPTS \
    -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
    -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 -Djava.awt.headless=true \
    -Dkafka.logs.dir="$LOG_DIR" -Dlog4j2.configurationFile="$KAFKA_DATA_DIR/log4j2.properties" \
    -cp "$(classpath)" kafka.Kafka "$KAFKA_DATA_DIR/server.properties" \
    </dev/null >"$LOG_DIR/kafka.out" 2>&1 &
  pid=$!
  echo "$pid" >"$PID_FILE"
  log "started broker (pid $pid), waiting for it to answer on $BOOTSTRAP"

  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail_log
      rm -f "$PID_FILE"
      die "broker exited during startup"
    fi
    if port_open "$KAFKA_PORT" && answers; then
      log "ready on $BOOTSTRAP after $((SECONDS - t0)) s (data in $KAFKA_DATA_DIR)"
      return 0
    fi
    if ((SECONDS - t0 >= START_TIMEOUT)); then
      tail_log
      cmd_stop >&2
      die "broker did not answer within $START_TIMEOUT s; stopped it (logs in $LOG_DIR)"
    fi
    sleep 0.2
  done
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"
    log "not running"
    return 0
  fi
  log "stopping broker (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  local t0=$SECONDS
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS - t0 >= STOP_TIMEOUT)); then
      log "still running after $STOP_TIMEOUT s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 1
      break
    fi
    sleep 0.5
  done
  rm -f "$PID_FILE"
  log "stopped after $((SECONDS - t0)) s"
}

cmd_status() {
  local pid
  if ! pid="$(running_pid)"; then
    log "not running"
    return 1
  fi
  if [[ -f "$LIB/.pom.sha256" ]] && answers; then
    log "running (pid $pid) and answering on $BOOTSTRAP"
    return 0
  fi
  log "running (pid $pid) but NOT answering on $BOOTSTRAP"
  return 1
}

cmd_clean() {
  cmd_stop
  if [[ ! -e "$KAFKA_DATA_DIR" ]]; then log "nothing to clean"; return 0; fi
  [[ -f "$MARKER" ]] || die "$KAFKA_DATA_DIR has no $(basename "$MARKER") marker: not deleting it"
  rm -rf "$KAFKA_DATA_DIR"
  log "deleted $KAFKA_DATA_DIR"
}

usage() {
  cat <<EOF
usage: $(basename "$0") fetch|start|stop|restart|status|clean

  fetch    download the Kafka jars from Maven Central into $LIB (once)
  start    fetch if needed, format storage if new, start the broker, wait until it answers
  stop     stop the broker (SIGTERM, SIGKILL after ${STOP_TIMEOUT} s)
  restart  stop, then start (data kept)
  status   exit 0 if running and answering, 1 otherwise
  clean    stop and delete the data dir ($KAFKA_DATA_DIR)

env: KAFKA_DATA_DIR, KAFKA_PORT, KAFKA_CONTROLLER_PORT, KAFKA_HEAP_OPTS, JAVA_HOME
EOF
}

case "${1:-}" in
  fetch) check_java; cmd_fetch; log "jars in $LIB" ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  restart) cmd_stop; cmd_start ;;
  status) cmd_status ;;
  clean) cmd_clean ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
