package dev.lockstep.worker.slot;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy;
import dev.lockstep.worker.invalid.InvalidInputHandler;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Puts each processed record, taken back in order, into the slot's open transaction: its
 * outputs and its input offset; or, when it failed as invalid input or its retry budget
 * is spent, what the {@link InvalidInputHandler} decides: quarantined or skipped in the
 * transaction, or blocked at, once what came before it is committed and the slot rewound
 * to it. A record with attempts left waits for its next one ({@link SlotRetries}); one
 * that failed otherwise is thrown, for the slot to recover from. Every record's trace
 * ends here.
 */
final class SlotIntake {

	private final SlotId id;

	private final SlotFailures failures;

	private final SlotTransaction transaction;

	private final SlotCommit commit;

	private final InvalidInputHandler invalidInput;

	private final SlotRecovery recovery;

	private final SlotRetries retries;

	private final BudgetClaims claims;

	SlotIntake(SlotId id, SlotFailures failures, SlotTransaction transaction, SlotCommit commit,
			InvalidInputHandler invalidInput, SlotRecovery recovery, SlotRetries retries, BudgetClaims claims) {
		this.id = id;
		this.failures = failures;
		this.transaction = transaction;
		this.commit = commit;
		this.invalidInput = invalidInput;
		this.recovery = recovery;
		this.retries = retries;
		this.claims = claims;
	}

	/**
	 * Put a processed record into the open transaction.
	 * @param record the record
	 * @return {@code false} when the record blocked the slot (the slot rewound to it)
	 * @throws Exception the record's failure, when it is not invalid input
	 */
	boolean accept(ProcessedRecord record) throws Exception {
		boolean joined = false;
		try {
			joined = join(record);
			return joined;
		}
		finally {
			// Its trace ends here, naming the transaction it joined. (The transaction's
			// own observation began outside the record's scope: it is not the record's child.)
			if (joined && this.transaction.isOpen()) {
				record.trace().joined(this.id.transactionalId(), this.transaction.sequence());
			}
			record.trace().end();
		}
	}

	private boolean join(ProcessedRecord record) throws Exception {
		Exception failure = record.failure();
		if (failure != null) {
			FailureCategory category = this.failures.categorize(failure, record.processorFailed());
			if (category == FailureCategory.INVALID_INPUT) {
				return setAside(record, this.invalidInput.invalid(record, this.transaction), null);
			}
			if (!this.retries.covers(record, category)) {
				throw failure;
			}
			return retry(record);
		}
		ConsumerRecord<byte[], byte[]> raw = record.raw();
		OpenTransaction open = this.transaction.begin();
		this.transaction.send(record.outputs());
		open.processed(raw, record.tombstone());
		this.invalidInput.valid(record);
		this.retries.done(raw);
		return true;
	}

	private boolean retry(ProcessedRecord record) throws Exception {
		RetryAttempts attempts = this.retries.failed(record);
		if (this.retries.hasAttemptsLeft(attempts)) {
			// Not in this transaction: the record comes back from a poll for its next attempt.
			this.claims.unclaim();
			this.retries.holdForNextAttempt(record, attempts);
			return true;
		}
		InvalidInputHandler.Outcome outcome = this.invalidInput.exhausted(record, attempts, this.retries.whenSpent(),
				this.transaction);
		boolean quarantined = outcome == InvalidInputHandler.Outcome.HANDLED;
		this.retries.spent(attempts, quarantined ? InvalidInputPolicy.Mode.QUARANTINE : InvalidInputPolicy.Mode.BLOCK);
		return setAside(record, outcome, attempts);
	}

	private boolean setAside(ProcessedRecord record, InvalidInputHandler.Outcome outcome,
			RetryAttempts attempts) throws Exception {
		if (outcome == InvalidInputHandler.Outcome.HANDLED) {
			this.retries.done(record.raw());
			return true;
		}
		// Block: commit what came before the record, then hold the slot at it.
		this.claims.unclaim();
		if (this.transaction.isEmpty()) {
			this.transaction.abort();
		}
		else {
			this.commit.commit();
		}
		this.recovery.rewindToPoints();
		this.invalidInput.block(record, attempts);
		return false;
	}

}
