/**
 * Internal: what a slot does with input it cannot process, blocking at it or moving it
 * to the quarantine topic in the open transaction, and the redrive that sends
 * quarantined records back. Public only for the worker's other packages; not an API.
 */
package dev.lockstep.worker.invalid;
