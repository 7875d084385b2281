package dev.lockstep.worker.invalid;

import java.time.Instant;
import java.util.Map;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.QuarantineHeaders;
import dev.lockstep.worker.SlotState.BlockedRecord;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy;
import dev.lockstep.worker.WorkerStatus;
import dev.lockstep.worker.slot.ProcessedRecord;
import dev.lockstep.worker.slot.RetryAttempts;
import dev.lockstep.worker.slot.SlotId;
import dev.lockstep.worker.slot.SlotMonitor;
import dev.lockstep.worker.slot.SlotTransaction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;

import org.springframework.core.log.LogAccessor;

/**
 * Decides what becomes of a record that can never be processed, or whose retry budget is
 * spent, and does it: skipped on an operator's request or quarantined, each added to the
 * open transaction; or blocked at, shown in health and announced until the record is
 * skipped or the slot processes it. Under quarantine, a slot whose recent records mostly
 * failed blocks instead (the {@link InvalidInputPolicy.QuarantineGuard}).
 */
public final class InvalidInputHandler {

	private static final LogAccessor logger = new LogAccessor(InvalidInputHandler.class);

	private final SlotId id;

	private final InvalidInputPolicy policy;

	private final SlotMonitor monitor;

	private final WorkerListener listener;

	// The outcome of the slot's most recent records, true for invalid, as a ring.
	private final boolean[] recent;

	private int next;

	private int invalidInWindow;

	// The blocked record an operator asked to skip; only that exact record is skipped.
	private volatile BlockedRecord skipRequested;

	/**
	 * Create the handler of one slot.
	 * @param id the slot
	 * @param policy what the worker does with invalid input
	 * @param monitor the slot's state: blocked, resumed, its recent errors
	 * @param listener told of each attempt at a record it blocks at
	 */
	public InvalidInputHandler(SlotId id, InvalidInputPolicy policy, SlotMonitor monitor, WorkerListener listener) {
		this.id = id;
		this.policy = policy;
		this.monitor = monitor;
		this.listener = listener;
		this.recent = new boolean[policy.guard().window()];
	}

	/**
	 * What the slot does with an invalid record.
	 */
	public enum Outcome {

		/** The record is in the open transaction (quarantined or skipped): go on. */
		HANDLED,

		/**
		 * Hold the slot at the record: the slot commits what came before it, rewinds to it
		 * and calls {@link #block(ProcessedRecord, RetryAttempts)}.
		 */
		BLOCK

	}

	/**
	 * Ask to skip the record the slot is blocked at, if it is still blocked at it.
	 * @return the record that will be skipped, or {@code null} when the slot is not blocked
	 */
	public BlockedRecord requestSkip() {
		BlockedRecord blocked = (this.monitor.status() == WorkerStatus.BLOCKED) ? this.monitor.blockedAt() : null;
		if (blocked != null) {
			this.skipRequested = blocked;
		}
		return blocked;
	}

	/**
	 * A transaction committed: a skip it holds is done (until then, a replay skips the
	 * record again).
	 * @param offsets the offsets it committed
	 */
	public void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
		BlockedRecord skip = this.skipRequested;
		if (skip != null) {
			OffsetAndMetadata committed = offsets.get(new TopicPartition(skip.topic(), skip.partition()));
			if (committed != null && committed.offset() > skip.offset()) {
				this.skipRequested = null;
			}
		}
	}

	/**
	 * A record was processed: it counts toward the guard's window, and a blocked slot runs
	 * again (the record it blocked at was skipped, or now processes).
	 * @param record the record, in the open transaction
	 */
	public void valid(ProcessedRecord record) {
		count(false);
		if (this.monitor.status() == WorkerStatus.BLOCKED) {
			ConsumerRecord<byte[], byte[]> raw = record.raw();
			record.trace().inScope(() -> logger.info(() -> this.id + " unblocked at " + raw.topic() + "-"
					+ raw.partition() + "@" + raw.offset()));
			this.monitor.status(WorkerStatus.RUNNING);
		}
	}

	/**
	 * Handle an invalid record inside the open transaction, as the invalid-input policy says.
	 * @param record the record, failed as invalid input
	 * @param transaction the slot's transaction
	 * @return what the slot does next
	 */
	public Outcome invalid(ProcessedRecord record, SlotTransaction transaction) {
		return setAside(record, this.policy.mode(), null, transaction);
	}

	/**
	 * Handle a record whose retry budget is spent inside the open transaction, as the
	 * budget says; the quarantined record carries its attempts.
	 * @param record the record, failed for the last time
	 * @param attempts its failed attempts
	 * @param mode quarantine it or block at it
	 * @param transaction the slot's transaction
	 * @return what the slot does next
	 */
	public Outcome exhausted(ProcessedRecord record, RetryAttempts attempts, InvalidInputPolicy.Mode mode,
			SlotTransaction transaction) {
		return setAside(record, mode, attempts, transaction);
	}

	private Outcome setAside(ProcessedRecord record, InvalidInputPolicy.Mode mode, RetryAttempts attempts,
			SlotTransaction transaction) {
		ConsumerRecord<byte[], byte[]> raw = record.raw();
		Exception reason = record.failure();
		String where = raw.topic() + "-" + raw.partition() + "@" + raw.offset();
		BlockedRecord skip = this.skipRequested;
		if (skip != null && skip.topic().equals(raw.topic()) && skip.partition() == raw.partition()
				&& skip.offset() == raw.offset()) {
			skip(record, attempts, where, transaction);
			return Outcome.HANDLED;
		}
		if (mode != InvalidInputPolicy.Mode.QUARANTINE) {
			return Outcome.BLOCK;
		}
		if (!isBlockedAt(raw)) {
			// A blocked record retried counts once.
			count(true);
		}
		if (guardTripped()) {
			this.monitor.error("Quarantine guard: " + this.invalidInWindow + " of the last " + this.recent.length
					+ " records failed; blocking instead of quarantining " + where);
			return Outcome.BLOCK;
		}
		transaction.send(quarantined(raw, reason, attempts));
		transaction.quarantined(raw);
		String after = (attempts != null) ? " after " + attempts.count() + " attempts" : "";
		this.monitor.error("Quarantined " + where + after + ": " + reason.getMessage());
		record.trace().inScope(() -> logger.warn(() -> this.id + " quarantined " + where + after + ": "
				+ reason.getMessage()));
		return Outcome.HANDLED;
	}

	/**
	 * Hold the slot at a record it did not move past, invalid or out of retries (the slot
	 * has committed what came before it and rewound to it): shown in health, logged once
	 * however often it is retried, and announced to the listener.
	 * @param record the record, failed
	 * @param attempts its failed attempts when its retry budget is spent, otherwise {@code null}
	 */
	public void block(ProcessedRecord record, RetryAttempts attempts) {
		ConsumerRecord<byte[], byte[]> raw = record.raw();
		String why = blockReason(record.failure(), attempts);
		if (this.monitor.status() != WorkerStatus.BLOCKED) {
			record.trace().inScope(() -> logger.error(() -> this.id + " BLOCKED at " + raw.topic() + "-"
					+ raw.partition() + "@" + raw.offset() + ": " + why));
		}
		BlockedRecord blocked = new BlockedRecord(raw.topic(), raw.partition(), raw.offset(), why);
		this.monitor.blocked(blocked);
		this.listener.rejected(this.id.worker(), this.id.index(), blocked);
	}

	private String blockReason(Throwable reason, RetryAttempts attempts) {
		String message = (attempts != null) ? "failed " + attempts.count() + " attempts: " + reason.getMessage()
				: String.valueOf(reason.getMessage());
		if (!guardTripped()) {
			return message;
		}
		String cause = (attempts != null) ? "failed (is a service the processor calls down?)"
				: "were invalid (is the worker reading the right topic, with the right registry?)";
		return "more than " + Math.round(this.policy.guard().maxRatio() * 100) + "% of the last " + this.recent.length
				+ " records " + cause + ", so quarantine blocks: " + message;
	}

	private boolean isBlockedAt(ConsumerRecord<byte[], byte[]> raw) {
		BlockedRecord blocked = this.monitor.blockedAt();
		return blocked != null && blocked.topic().equals(raw.topic()) && blocked.partition() == raw.partition()
				&& blocked.offset() == raw.offset();
	}

	private boolean guardTripped() {
		return this.invalidInWindow > this.policy.guard().maxRatio() * this.recent.length;
	}

	private void count(boolean invalid) {
		if (this.recent[this.next]) {
			this.invalidInWindow--;
		}
		this.recent[this.next] = invalid;
		if (invalid) {
			this.invalidInWindow++;
		}
		this.next = (this.next + 1) % this.recent.length;
	}

	/**
	 * Move past a blocked record on an operator's request, inside the transaction: to the
	 * quarantine topic when there is one, otherwise only its offset moves.
	 */
	private void skip(ProcessedRecord skipped, RetryAttempts attempts, String where,
			SlotTransaction transaction) {
		ConsumerRecord<byte[], byte[]> raw = skipped.raw();
		Exception reason = skipped.failure();
		String quarantineTopic = this.policy.quarantineTopic();
		boolean toQuarantine = quarantineTopic != null && !quarantineTopic.isBlank();
		if (toQuarantine) {
			ProducerRecord<byte[], byte[]> record = quarantined(raw, reason, attempts);
			QuarantineHeaders.add(record.headers(), QuarantineHeaders.SKIPPED, "operator");
			transaction.send(record);
		}
		transaction.quarantined(raw);
		this.monitor.status(WorkerStatus.RUNNING);
		this.monitor.error("Skipped " + where + " on operator request: " + reason.getMessage());
		skipped.trace().inScope(() -> logger.warn(() -> this.id + " skipped " + where + " on operator request"
				+ (toQuarantine ? " (written to " + quarantineTopic + ")" : "") + ": " + reason.getMessage()));
	}

	private ProducerRecord<byte[], byte[]> quarantined(ConsumerRecord<byte[], byte[]> raw, Throwable reason,
			RetryAttempts attempts) {
		RecordHeaders headers = new RecordHeaders(raw.headers().toArray());
		QuarantineHeaders.add(headers, QuarantineHeaders.TOPIC, raw.topic());
		QuarantineHeaders.add(headers, QuarantineHeaders.PARTITION, Integer.toString(raw.partition()));
		QuarantineHeaders.add(headers, QuarantineHeaders.OFFSET, Long.toString(raw.offset()));
		QuarantineHeaders.add(headers, QuarantineHeaders.EXCEPTION, reason.getClass().getName());
		QuarantineHeaders.add(headers, QuarantineHeaders.MESSAGE, String.valueOf(reason.getMessage()));
		QuarantineHeaders.add(headers, QuarantineHeaders.TIMESTAMP, Instant.now().toString());
		QuarantineHeaders.add(headers, QuarantineHeaders.CATEGORY,
				(attempts != null) ? FailureCategory.ABORTABLE.name() : FailureCategory.INVALID_INPUT.name());
		QuarantineHeaders.add(headers, QuarantineHeaders.ATTEMPTS,
				Integer.toString((attempts != null) ? attempts.count() : 1));
		if (attempts != null) {
			QuarantineHeaders.add(headers, QuarantineHeaders.FIRST_EXCEPTION, attempts.first().getClass().getName());
			QuarantineHeaders.add(headers, QuarantineHeaders.FIRST_MESSAGE,
					String.valueOf(attempts.first().getMessage()));
			QuarantineHeaders.add(headers, QuarantineHeaders.FIRST_TIMESTAMP, attempts.firstAt().toString());
		}
		return new ProducerRecord<>(this.policy.quarantineTopic(), null, raw.key(), raw.value(), headers);
	}

}
