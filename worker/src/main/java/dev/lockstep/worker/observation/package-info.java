/**
 * How a worker observes its transactions and traces its records: the
 * {@link dev.lockstep.worker.observation.WorkerObservations} a worker is given, the
 * transaction observation's context and convention, and the
 * {@link dev.lockstep.worker.observation.RecordTracing} a tracer implements.
 */
package dev.lockstep.worker.observation;
