package dev.lockstep.worker.slot;

import java.time.Instant;

/**
 * The failed attempts of the record a partition is retrying.
 *
 * @param offset the record's offset
 * @param count its failed attempts
 * @param first its first failure
 * @param firstAt when it first failed
 * @param last its last failure
 */
public record RetryAttempts(long offset, int count, Throwable first, Instant firstAt, Throwable last) {

	static RetryAttempts first(long offset, Throwable failure) {
		return new RetryAttempts(offset, 1, failure, Instant.now(), failure);
	}

	RetryAttempts failedAgain(Throwable failure) {
		return new RetryAttempts(this.offset, this.count + 1, this.first, this.firstAt, failure);
	}

}
