export { enqueueJob, cancelJobs, type JobRequest } from "./enqueue";
export { createJobRunner, type JobRunner, type JobRunnerOptions } from "./job-runner";
export { JobCancelled, type JobOutcome } from "./job-run";
export { JobFailure, JobLost, JobRunnerStopping, defaultBackoffMs, type JobDefinition, type JobInfo, type RunningJob } from "./job-definition";
export { JOB_TRANSACTION, JOBS_TABLE, jobHeldSql, type JobDb, type JobLease, type JobSql, type SqlTag } from "./job-sql";
