package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.worker.RecoveryPolicy.Recovery;
import dev.lockstep.worker.SlotState.BlockedRecord;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

import org.springframework.core.log.LogAccessor;

/**
 * One consumer and one transactional producer running consume-transform-produce on
 * their own thread. Per poll: decode, process, encode and send each record inside the
 * open transaction (which may span polls); when the transaction is due, check every
 * send, add the input offsets with the consumer's group metadata, and commit. Failures
 * go through the {@link RecoveryPolicy}; invalid input through the invalid-input policy.
 */
final class WorkerSlot implements Runnable {

	private static final LogAccessor logger = new LogAccessor(WorkerSlot.class);

	static final String ERROR_HEADER_PREFIX = "lockstep.error.";

	private final WorkerSettings settings;

	private final int index;

	private final RecordProcessor<Object, Object> processor;

	private final RecoveryPolicy recoveryPolicy;

	private final SlotMonitor monitor;

	private final RecordBudget budget;

	private final WorkerListener listener;

	private final Deserializer<Object> keyDeserializer;

	private final Deserializer<Object> valueDeserializer;

	private final Serializer<Object> keySerializer;

	private final Serializer<Object> valueSerializer;

	private final Object pause = new Object();

	// Where each assigned partition's committed input ends: the rewind target.
	private final Map<TopicPartition, Long> committedPositions = new HashMap<>();

	private volatile boolean stopRequested;

	private volatile boolean pauseRequested;

	// The blocked record an operator asked to skip; only that exact record is skipped.
	private volatile BlockedRecord skipRequested;

	private boolean paused;

	private Consumer<byte[], byte[]> consumer;

	private Producer<byte[], byte[]> producer;

	private OpenTransaction transaction;

	private int consecutiveFailures;

	private long lastInputNanos;

	@SuppressWarnings("unchecked")
	WorkerSlot(WorkerSettings settings, int index, RecordProcessor<?, ?> processor, RecoveryPolicy recoveryPolicy,
			SlotMonitor monitor, RecordBudget budget, WorkerListener listener) {
		this.settings = settings;
		this.index = index;
		this.processor = (RecordProcessor<Object, Object>) processor;
		this.recoveryPolicy = recoveryPolicy;
		this.monitor = monitor;
		this.budget = budget;
		this.listener = listener;
		this.keyDeserializer = (Deserializer<Object>) settings.codecs().keyDeserializer();
		this.valueDeserializer = (Deserializer<Object>) settings.codecs().valueDeserializer();
		this.keySerializer = (Serializer<Object>) settings.codecs().keySerializer();
		this.valueSerializer = (Serializer<Object>) settings.codecs().valueSerializer();
	}

	void requestPause(boolean pause) {
		this.pauseRequested = pause;
	}

	/**
	 * Ask the slot to skip the record it is blocked at, if it is still blocked at it.
	 * @return the record that will be skipped, or {@code null} when the slot is not blocked
	 */
	BlockedRecord requestSkip() {
		BlockedRecord blocked = (this.monitor.status() == WorkerStatus.BLOCKED) ? this.monitor.blockedAt() : null;
		this.skipRequested = blocked;
		return blocked;
	}

	void requestStop() {
		synchronized (this.pause) {
			this.stopRequested = true;
			this.pause.notifyAll();
		}
	}

	@Override
	public void run() {
		try {
			this.producer = newProducer();
			if (this.stopRequested) {
				return;
			}
			this.consumer = newConsumer();
			this.listener.consumerCreated(this.settings.name(), this.index, this.consumer);
			this.consumer.subscribe(this.settings.sourceTopics(), new CommitBeforeRevocation());
			this.monitor.status(WorkerStatus.RUNNING);
			this.lastInputNanos = System.nanoTime();
			while (!this.stopRequested) {
				try {
					pollOnce();
				}
				catch (SlotFailure ex) {
					throw ex;
				}
				catch (Exception ex) {
					recover(ex);
				}
			}
			if (this.transaction != null) {
				abortQuietly();
			}
		}
		catch (SlotFailure ex) {
			this.monitor.error(ex.getMessage());
			this.monitor.status(ex.status);
			logger.error(() -> "Worker " + this.settings.name() + " slot " + this.index + " " + ex.status + ": "
					+ ex.getMessage());
		}
		catch (RuntimeException ex) {
			this.monitor.error("Unexpected failure: " + ex);
			this.monitor.status(WorkerStatus.FAILED);
			logger.error(ex, () -> "Worker " + this.settings.name() + " slot " + this.index + " failed");
		}
		finally {
			close();
		}
	}

	private void pollOnce() throws Exception {
		applyPause();
		ConsumerRecords<byte[], byte[]> records = this.consumer.poll(this.settings.pollTimeout());
		if (records.isEmpty()) {
			checkIdle();
		}
		else {
			this.lastInputNanos = System.nanoTime();
		}
		// Lag is read on every poll: an empty poll is what moves past a final commit marker.
		Map<TopicPartition, Long> lag = lag();
		this.monitor.lag(lag);
		this.listener.polled(this.settings.name(), this.index, records.count(), lag);
		for (ConsumerRecord<byte[], byte[]> record : records) {
			if (this.budget != null && !this.budget.tryClaim()) {
				// One-shot run complete: what is left of this poll is never committed.
				requestStop();
				break;
			}
			if (this.transaction == null) {
				this.producer.beginTransaction();
				this.transaction = new OpenTransaction();
				this.monitor.transactionOpen(true);
			}
			if (!process(record)) {
				break;
			}
			if (this.budget != null && this.budget.isExhausted()) {
				// The one-shot run's last record: commit it below, then stop.
				requestStop();
				break;
			}
		}
		if (this.transaction != null
				&& (this.stopRequested || this.transaction.isDue(this.settings.transaction()))) {
			commit();
		}
	}

	private void applyPause() throws Exception {
		if (this.pauseRequested && !this.paused) {
			if (this.transaction != null) {
				commit();
			}
			this.consumer.pause(this.consumer.assignment());
			this.paused = true;
			this.monitor.status(WorkerStatus.PAUSED);
			logger.info(() -> "Worker " + this.settings.name() + " slot " + this.index + " paused");
		}
		else if (!this.pauseRequested && this.paused) {
			this.consumer.resume(this.consumer.paused());
			this.paused = false;
			this.monitor.status(WorkerStatus.RUNNING);
			logger.info(() -> "Worker " + this.settings.name() + " slot " + this.index + " resumed");
		}
	}

	/**
	 * Process one record in the open transaction.
	 * @return {@code false} when the record blocked the slot (the rest of the poll is
	 * dropped and replayed later)
	 */
	private boolean process(ConsumerRecord<byte[], byte[]> raw) throws Exception {
		BufferedOutput output = new BufferedOutput(this.settings.destination(), this.keySerializer,
				this.valueSerializer);
		boolean tombstone;
		try {
			ConsumerRecord<Object, Object> decoded = decode(raw);
			tombstone = decoded.value() == null;
			this.processor.process(decoded, output);
		}
		catch (InvalidRecordException | InvalidDataException ex) {
			return invalid(raw, ex);
		}
		for (ProducerRecord<byte[], byte[]> record : output.records()) {
			this.producer.send(record, this.transaction);
			this.transaction.output();
		}
		this.transaction.processed(raw, tombstone);
		if (this.monitor.status() == WorkerStatus.BLOCKED) {
			logger.info(() -> "Worker " + this.settings.name() + " slot " + this.index + " unblocked at "
					+ raw.topic() + "-" + raw.partition() + "@" + raw.offset());
			this.monitor.status(WorkerStatus.RUNNING);
		}
		return true;
	}

	private ConsumerRecord<Object, Object> decode(ConsumerRecord<byte[], byte[]> raw) {
		Object key = this.keyDeserializer.deserialize(raw.topic(), raw.headers(), raw.key());
		Object value = this.valueDeserializer.deserialize(raw.topic(), raw.headers(), raw.value());
		return new ConsumerRecord<>(raw.topic(), raw.partition(), raw.offset(), raw.timestamp(), raw.timestampType(),
				raw.serializedKeySize(), raw.serializedValueSize(), key, value, raw.headers(), raw.leaderEpoch());
	}

	private boolean invalid(ConsumerRecord<byte[], byte[]> raw, RuntimeException reason) throws Exception {
		String where = raw.topic() + "-" + raw.partition() + "@" + raw.offset();
		BlockedRecord skip = this.skipRequested;
		if (skip != null && skip.topic().equals(raw.topic()) && skip.partition() == raw.partition()
				&& skip.offset() == raw.offset()) {
			return skip(raw, reason, where);
		}
		if (this.settings.invalidInput().mode() == Mode.QUARANTINE) {
			this.producer.send(quarantined(raw, reason), this.transaction);
			this.transaction.quarantined(raw);
			this.monitor.error("Quarantined " + where + ": " + reason.getMessage());
			logger.warn(() -> "Worker " + this.settings.name() + " quarantined " + where + ": " + reason.getMessage());
			return true;
		}
		// Block: commit what came before the record, then hold the slot at it.
		if (this.transaction.isEmpty()) {
			abortQuietly();
		}
		else {
			commit();
		}
		if (this.budget != null) {
			this.budget.release(1);
		}
		rewind();
		if (this.monitor.status() != WorkerStatus.BLOCKED) {
			logger.error(() -> "Worker " + this.settings.name() + " slot " + this.index + " BLOCKED at " + where
					+ ": " + reason.getMessage());
		}
		BlockedRecord blocked = new BlockedRecord(raw.topic(), raw.partition(), raw.offset(), reason.getMessage());
		this.monitor.blocked(blocked);
		this.listener.rejected(this.settings.name(), this.index, blocked);
		backOff();
		return false;
	}

	/**
	 * Move past a blocked record on an operator's request, inside the transaction: to the
	 * quarantine topic when there is one, otherwise only its offset moves.
	 */
	private boolean skip(ConsumerRecord<byte[], byte[]> raw, RuntimeException reason, String where) {
		this.skipRequested = null;
		String quarantineTopic = this.settings.invalidInput().quarantineTopic();
		if (quarantineTopic != null && !quarantineTopic.isBlank()) {
			ProducerRecord<byte[], byte[]> record = quarantined(raw, reason);
			header((RecordHeaders) record.headers(), "skipped", "operator");
			this.producer.send(record, this.transaction);
		}
		this.transaction.quarantined(raw);
		this.monitor.status(WorkerStatus.RUNNING);
		this.monitor.error("Skipped " + where + " on operator request: " + reason.getMessage());
		logger.warn(() -> "Worker " + this.settings.name() + " skipped " + where + " on operator request"
				+ ((quarantineTopic != null) ? " (written to " + quarantineTopic + ")" : "") + ": "
				+ reason.getMessage());
		return true;
	}

	private ProducerRecord<byte[], byte[]> quarantined(ConsumerRecord<byte[], byte[]> raw, RuntimeException reason) {
		RecordHeaders headers = new RecordHeaders(raw.headers().toArray());
		header(headers, "topic", raw.topic());
		header(headers, "partition", Integer.toString(raw.partition()));
		header(headers, "offset", Long.toString(raw.offset()));
		header(headers, "exception", reason.getClass().getName());
		header(headers, "message", String.valueOf(reason.getMessage()));
		header(headers, "timestamp", Instant.now().toString());
		return new ProducerRecord<>(this.settings.invalidInput().quarantineTopic(), null, raw.key(), raw.value(),
				headers);
	}

	private static void header(RecordHeaders headers, String name, String value) {
		headers.add(ERROR_HEADER_PREFIX + name, value.getBytes(StandardCharsets.UTF_8));
	}

	private void commit() throws Exception {
		OpenTransaction committing = this.transaction;
		long commitStarted = System.nanoTime();
		// The offsets join the transaction while its sends are still in flight; the commit
		// then waits for every send and fails if any of them failed, so the offsets never
		// move without the outputs. A timed-out call is retried as the same call, never
		// replaced by a new transaction.
		Map<TopicPartition, OffsetAndMetadata> offsets = committing.offsets();
		try {
			retrying("sending offsets",
					() -> this.producer.sendOffsetsToTransaction(offsets, this.consumer.groupMetadata()));
			retrying("commit", this.producer::commitTransaction);
		}
		catch (KafkaException ex) {
			// The producer reports a failed send as its own error state: name the send's failure.
			committing.throwFailedDelivery();
			throw ex;
		}
		offsets.forEach((partition, offset) -> this.committedPositions.put(partition, offset.offset()));
		this.monitor.committedOffsets(this.committedPositions);
		this.monitor.transactionOpen(false);
		this.transaction = null;
		this.consecutiveFailures = 0;
		this.monitor.committed(committing.records());
		this.listener.committed(this.settings.name(), this.index, committing.outcome(commitStarted));
	}

	/**
	 * Run a transaction call, retrying it after a backoff while it fails with a retriable
	 * error (a timeout) and the slot is not stopping: kafka-clients allows retrying the
	 * same call, which then completes the pending request.
	 */
	private void retrying(String operation, Runnable call) {
		while (true) {
			try {
				call.run();
				return;
			}
			catch (RuntimeException ex) {
				if (this.recoveryPolicy.classify(ex) != Recovery.RETRY || this.stopRequested) {
					throw ex;
				}
				this.monitor.error(operation + " timed out, retrying: " + ex.getMessage());
				logger.warn(() -> "Worker " + this.settings.name() + " slot " + this.index + " " + operation
						+ " timed out, retrying: " + ex);
				backOff();
			}
		}
	}

	private void recover(Exception failure) {
		Recovery recovery = this.recoveryPolicy.classify(failure);
		this.monitor.error(recovery + " after " + failure);
		this.listener.recovered(this.settings.name(), this.index, recovery);
		logger.warn(() -> "Worker " + this.settings.name() + " slot " + this.index + " recovering (" + recovery
				+ ") from " + failure);
		switch (recovery) {
			case FENCED -> throw fenced(failure);
			case REPLACE_PRODUCER -> {
				releaseTransaction();
				closeProducer();
				rewindQuietly();
				backOff();
				this.producer = newProducer();
			}
			default -> {
				abortQuietly();
				rewindQuietly();
				backOff();
			}
		}
	}

	private SlotFailure fenced(Throwable failure) {
		releaseTransaction();
		return new SlotFailure(WorkerStatus.FENCED, "another instance with transactional id "
				+ this.settings.transactionalId(this.index) + " took over (" + failure.getMessage() + ")");
	}

	private void abortQuietly() {
		if (this.transaction == null) {
			return;
		}
		releaseTransaction();
		try {
			retrying("abort", this.producer::abortTransaction);
		}
		catch (RuntimeException ex) {
			Recovery recovery = this.recoveryPolicy.classify(ex);
			if (recovery == Recovery.FENCED) {
				throw fenced(ex);
			}
			// A producer that cannot abort is replaced: initialising its successor aborts the transaction.
			this.monitor.error("Abort failed, replacing the producer: " + ex);
			closeProducer();
			this.producer = newProducer();
		}
	}

	private void releaseTransaction() {
		if (this.transaction != null) {
			if (this.budget != null) {
				this.budget.release(this.transaction.records());
			}
			this.listener.aborted(this.settings.name(), this.index, this.transaction.records());
		}
		this.monitor.transactionOpen(false);
		this.transaction = null;
	}

	private Map<TopicPartition, Long> lag() {
		Map<TopicPartition, Long> lag = new HashMap<>();
		for (TopicPartition partition : this.consumer.assignment()) {
			this.consumer.currentLag(partition).ifPresent((behind) -> lag.put(partition, behind));
		}
		return lag;
	}

	private void rewindQuietly() {
		try {
			rewind();
		}
		catch (RuntimeException ex) {
			this.monitor.error("Rewind failed: " + ex);
		}
	}

	private void rewind() {
		for (TopicPartition partition : this.consumer.assignment()) {
			Long position = this.committedPositions.get(partition);
			if (position != null) {
				this.consumer.seek(partition, position);
			}
		}
	}

	private void checkIdle() {
		Duration idle = this.settings.bounds().idleTimeout();
		if (idle != null && System.nanoTime() - this.lastInputNanos > idle.toNanos()) {
			throw new SlotFailure(WorkerStatus.FAILED, "no input for " + idle + " (input deadline exceeded)");
		}
	}

	private void backOff() {
		this.consecutiveFailures++;
		WorkerSettings.Backoff backoff = this.settings.backoff();
		long millis = Math.min(backoff.max().toMillis(),
				backoff.initial().toMillis() << Math.min(this.consecutiveFailures - 1, 20));
		synchronized (this.pause) {
			if (!this.stopRequested && millis > 0) {
				try {
					this.pause.wait(millis);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					this.stopRequested = true;
				}
			}
		}
	}

	private Producer<byte[], byte[]> newProducer() {
		Map<String, Object> props = new HashMap<>(this.settings.producerProperties());
		props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, this.settings.transactionalId(this.index));
		props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		props.put(ProducerConfig.ACKS_CONFIG, "all");
		props.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG,
				"lockstep-" + this.settings.name() + "-" + this.index + "-producer");
		KafkaProducer<byte[], byte[]> created = new KafkaProducer<>(props, new ByteArraySerializer(),
				new ByteArraySerializer());
		while (true) {
			try {
				// Fences any predecessor with this transactional id and aborts its open transaction.
				created.initTransactions();
				this.listener.producerCreated(this.settings.name(), this.index, created);
				return created;
			}
			catch (RuntimeException ex) {
				Recovery recovery = this.recoveryPolicy.classify(ex);
				this.monitor.error("Producer initialisation failed (" + recovery + "): " + ex);
				if (recovery != Recovery.RETRY || this.stopRequested) {
					created.close(Duration.ZERO);
					if (this.stopRequested) {
						return created;
					}
					throw ex;
				}
				backOff();
			}
		}
	}

	private Consumer<byte[], byte[]> newConsumer() {
		Map<String, Object> props = new HashMap<>(this.settings.consumerProperties());
		props.put(ConsumerConfig.GROUP_ID_CONFIG, this.settings.groupId());
		props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG,
				"lockstep-" + this.settings.name() + "-" + this.index + "-consumer");
		return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
	}

	private void close() {
		Duration timeout = this.settings.shutdownTimeout();
		if (this.consumer != null) {
			this.listener.consumerClosing(this.settings.name(), this.index, this.consumer);
			try {
				// Leaves the group, so the partitions move to another instance at once.
				this.consumer.close(CloseOptions.timeout(timeout)
					.withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
			}
			catch (RuntimeException ex) {
				logger.warn(ex, () -> "Worker " + this.settings.name() + " slot " + this.index + " consumer close");
			}
		}
		closeProducer();
		WorkerStatus status = this.monitor.status();
		if (status != WorkerStatus.FENCED && status != WorkerStatus.FAILED) {
			this.monitor.status(WorkerStatus.STOPPED);
		}
	}

	private void closeProducer() {
		if (this.producer != null) {
			this.listener.producerClosing(this.settings.name(), this.index, this.producer);
			try {
				this.producer.close(this.settings.shutdownTimeout());
			}
			catch (RuntimeException ex) {
				logger.warn(ex, () -> "Worker " + this.settings.name() + " slot " + this.index + " producer close");
			}
			this.producer = null;
		}
	}

	/**
	 * Before partitions move to another consumer, the open transaction is committed (or
	 * aborted), so the new owner starts exactly where this slot's output ends.
	 */
	private final class CommitBeforeRevocation implements ConsumerRebalanceListener {

		@Override
		public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
			if (WorkerSlot.this.transaction != null) {
				try {
					commit();
				}
				catch (Exception ex) {
					if (WorkerSlot.this.recoveryPolicy.classify(ex) == Recovery.FENCED) {
						WorkerSlot.this.monitor.error("Fenced during rebalance: " + ex);
						WorkerSlot.this.requestStop();
					}
					else {
						abortQuietly();
						rewindQuietly();
					}
				}
			}
			partitions.forEach(WorkerSlot.this.committedPositions::remove);
			WorkerSlot.this.monitor.committedOffsets(WorkerSlot.this.committedPositions);
		}

		@Override
		public void onPartitionsLost(Collection<TopicPartition> partitions) {
			abortQuietly();
			partitions.forEach(WorkerSlot.this.committedPositions::remove);
		}

		@Override
		public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
			for (TopicPartition partition : partitions) {
				WorkerSlot.this.committedPositions.put(partition, WorkerSlot.this.consumer.position(partition));
			}
			WorkerSlot.this.monitor.committedOffsets(WorkerSlot.this.committedPositions);
			if (WorkerSlot.this.paused) {
				WorkerSlot.this.consumer.pause(partitions);
			}
		}

	}

	/**
	 * Ends the slot with a status other than STOPPED.
	 */
	private static final class SlotFailure extends RuntimeException {

		private static final long serialVersionUID = 1L;

		private final transient WorkerStatus status;

		SlotFailure(WorkerStatus status, String message) {
			super(message);
			this.status = status;
		}

	}

}
