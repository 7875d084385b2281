/**
 * How a worker observes its transactions and traces its records: the
 * {@link dev.lockstep.worker.observation.WorkerObservations} a worker is given, the
 * transaction observation's context and convention, and the
 * {@link dev.lockstep.worker.observation.RecordTracing} a tracer implements. It depends on
 * no other package of the worker. {@code TransactionObservation}, what a slot's
 * transaction is observed by, is public for the slot, not as an extension point.
 */
package dev.lockstep.worker.observation;
