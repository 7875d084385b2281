/**
 * Internal: a worker's slot, one consumer and one transactional producer on its own
 * thread, and the transaction it keeps open (polling, committing, recovering, retrying,
 * giving partitions up). Public only for the worker's other packages; not an API.
 */
package dev.lockstep.worker.slot;
