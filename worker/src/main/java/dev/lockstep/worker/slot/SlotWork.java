package dev.lockstep.worker.slot;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

import dev.lockstep.worker.AsyncRecordProcessor;
import dev.lockstep.worker.Output;
import dev.lockstep.worker.RecordProcessor;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.observation.RecordTrace;
import dev.lockstep.worker.observation.SlotTracing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * The user's processor as a slot runs it on one record: decode, process, collect the
 * encoded outputs, traced when the worker traces records. A blocking processor runs
 * on the calling thread; an asynchronous one returns at once with a stage. Either way
 * every failure comes back as the processed record's failure, never thrown.
 */
public final class SlotWork {

	private final SlotCodecs codecs;

	private final SlotTracing tracing;

	private final RecordProcessor<Object, Object> blocking;

	private final AsyncRecordProcessor<Object, Object> async;

	@SuppressWarnings("unchecked")
	private SlotWork(WorkerSettings settings, RecordProcessor<?, ?> blocking, AsyncRecordProcessor<?, ?> async) {
		this.codecs = new SlotCodecs(settings);
		this.tracing = settings.observations().slot(settings.name(), settings.groupId());
		this.blocking = (RecordProcessor<Object, Object>) blocking;
		this.async = (AsyncRecordProcessor<Object, Object>) async;
	}

	/**
	 * The work of a blocking processor.
	 * @param settings the worker's settings
	 * @param processor the user's processor
	 * @return the work
	 */
	public static SlotWork of(WorkerSettings settings, RecordProcessor<?, ?> processor) {
		return new SlotWork(settings, processor, null);
	}

	/**
	 * The work of an asynchronous processor.
	 * @param settings the worker's settings
	 * @param processor the user's processor
	 * @return the work
	 */
	public static SlotWork of(WorkerSettings settings, AsyncRecordProcessor<?, ?> processor) {
		return new SlotWork(settings, null, processor);
	}

	/**
	 * The slot's transaction committed, or its records were dropped: records processed
	 * from now on belong to the next transaction (their traces may share one).
	 */
	void transactionEnded() {
		this.tracing.transactionEnded();
	}

	/**
	 * The slot stopped: the traces of what it processed end once their records have.
	 */
	void close() {
		this.tracing.close();
	}

	/**
	 * Return whether the processor is asynchronous.
	 * @return whether it returns a stage
	 */
	public boolean isAsync() {
		return this.async != null;
	}

	/**
	 * Process a record on the calling thread, waiting for an asynchronous processor.
	 * @param raw the record as consumed
	 * @return the processed record
	 */
	public ProcessedRecord run(ConsumerRecord<byte[], byte[]> raw) {
		if (this.async != null) {
			CompletableFuture<ProcessedRecord> processing = start(raw).toCompletableFuture();
			try {
				return processing.get();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				// The record is dropped; its trace ends when its stage does.
				processing.thenAccept((abandoned) -> abandoned.trace().end());
				return failed(raw, ex, false, RecordTrace.NONE);
			}
			catch (ExecutionException ex) {
				// The stage never completes exceptionally: this is no failure of the processor's.
				return failed(raw, ex.getCause(), false, RecordTrace.NONE);
			}
		}
		RecordTrace trace = this.tracing.start(raw);
		BufferedOutput output = this.codecs.newOutput(raw, trace);
		boolean decoded = false;
		try (RecordTrace.Scope scope = trace.openScope()) {
			ConsumerRecord<Object, Object> record = this.codecs.decode(raw);
			decoded = true;
			this.blocking.process(record, output);
			return ProcessedRecord.done(raw, record.value() == null, output.records(), trace);
		}
		catch (Throwable ex) {
			// An Error too: thrown on, it would end a pool task with its records never done.
			return failed(raw, ex, decoded && !output.isEncodingFailure(ex), trace);
		}
	}

	/**
	 * Start processing a record: an asynchronous processor is called on this thread and
	 * completes on its own.
	 * @param raw the record as consumed
	 * @return a stage of the processed record, which never completes exceptionally
	 */
	public CompletionStage<ProcessedRecord> start(ConsumerRecord<byte[], byte[]> raw) {
		if (this.async == null) {
			return CompletableFuture.completedFuture(run(raw));
		}
		RecordTrace trace = this.tracing.start(raw);
		BufferedOutput buffered = this.codecs.newOutput(raw, trace);
		SynchronizedOutput output = new SynchronizedOutput(buffered);
		boolean decoded = false;
		try (RecordTrace.Scope scope = trace.openScope()) {
			ConsumerRecord<Object, Object> record = this.codecs.decode(raw);
			decoded = true;
			boolean tombstone = record.value() == null;
			return this.async.process(record, output).handle((ignored, ex) -> {
				List<ProducerRecord<byte[], byte[]>> outputs = output.close();
				return (ex != null) ? failed(raw, ex, !buffered.isEncodingFailure(unwrap(ex)), trace)
						: ProcessedRecord.done(raw, tombstone, outputs, trace);
			});
		}
		catch (Throwable ex) {
			output.close();
			return CompletableFuture.completedFuture(
					failed(raw, ex, decoded && !buffered.isEncodingFailure(ex), trace));
		}
	}

	private static ProcessedRecord failed(ConsumerRecord<byte[], byte[]> raw, Throwable failure,
			boolean processorFailed, RecordTrace trace) {
		Throwable cause = unwrap(failure);
		Exception exception = (cause instanceof Exception ex) ? ex : new IllegalStateException("Processing failed", cause);
		trace.error(exception);
		return ProcessedRecord.failed(raw, exception, processorFailed, trace);
	}

	private static Throwable unwrap(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

	/**
	 * An asynchronous processor may send from any thread until its stage completes, and
	 * not after: a late record would miss its transaction.
	 */
	private static final class SynchronizedOutput implements Output {

		private final BufferedOutput delegate;

		private boolean closed;

		SynchronizedOutput(BufferedOutput delegate) {
			this.delegate = delegate;
		}

		@Override
		public synchronized void toDestination(Object key, Object value, Headers headers) {
			checkOpen();
			this.delegate.toDestination(key, value, headers);
		}

		@Override
		public synchronized void send(String topic, Object key, Object value, Headers headers) {
			checkOpen();
			this.delegate.send(topic, key, value, headers);
		}

		/** The stage completed: return what was sent, and take no more. */
		synchronized List<ProducerRecord<byte[], byte[]>> close() {
			this.closed = true;
			return this.delegate.records();
		}

		private void checkOpen() {
			if (this.closed) {
				throw new IllegalStateException(
						"The record's stage has completed: send its outputs before completing the stage");
			}
		}

	}

}
