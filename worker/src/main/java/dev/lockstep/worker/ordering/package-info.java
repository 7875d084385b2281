/**
 * Internal: the order in which a slot processes its records (one at a time in offset
 * order, concurrently with each key's records in order, or concurrently in no order) and
 * the records in flight. Public only for the worker's other packages; not an API.
 */
package dev.lockstep.worker.ordering;
