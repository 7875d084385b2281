/**
 * A consume-transform-produce worker whose input offsets commit in the same Kafka
 * transaction as its outputs: what a user writes ({@link dev.lockstep.worker.RecordProcessor},
 * {@link dev.lockstep.worker.ValueTransformer} and their asynchronous forms, writing to an
 * {@link dev.lockstep.worker.Output}), how a worker is set up
 * ({@link dev.lockstep.worker.WorkerSettings}), started and stopped
 * ({@link dev.lockstep.worker.Worker}, {@link dev.lockstep.worker.LockstepWorkers}), and
 * what it reports ({@link dev.lockstep.worker.WorkerListener},
 * {@link dev.lockstep.worker.WorkerState}). {@code observation} holds the tracing and
 * observation extension points; {@code slot}, {@code ordering} and {@code invalid} are the
 * runtime behind the API, internal.
 */
package dev.lockstep.worker;
