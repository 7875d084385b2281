package dev.lockstep.worker.slot;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import dev.lockstep.worker.AsyncRecordProcessor;
import dev.lockstep.worker.InvalidRecordException;
import dev.lockstep.worker.MockSlot;
import dev.lockstep.worker.OpenTraces;
import dev.lockstep.worker.Output;
import dev.lockstep.worker.RecordProcessor;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import dev.lockstep.worker.observation.RecordTrace;
import dev.lockstep.worker.observation.RecordTracing;
import dev.lockstep.worker.observation.SlotTracing;
import dev.lockstep.worker.observation.WorkerObservations;
import io.micrometer.observation.ObservationRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A processor as a slot runs it on one record: blocking and asynchronous forms, their
 * failures returned as the processed record's, an asynchronous processor's outputs
 * closed once its stage completes, and its trace, which never fails the record and
 * always ends.
 */
class SlotWorkTests {

	private final WorkerSettings settings = MockSlot.settings(Mode.BLOCK,
			new TransactionSizing(100, Duration.ofSeconds(1)), MockSlot.strings());

	private final ConsumerRecord<byte[], byte[]> raw = new ConsumerRecord<>("in", 0, 7, "k".getBytes(),
			"v".getBytes());

	@Test
	void anAsynchronousRejectionIsTheRecordsFailureUnwrapped() {
		SlotWork work = SlotWork.of(this.settings, AsyncRecordProcessor.of((String value) -> CompletableFuture
			.supplyAsync(() -> {
				throw new InvalidRecordException("bad " + value);
			})));
		ProcessedRecord processed = work.run(this.raw);
		assertThat(processed.failure()).isInstanceOf(InvalidRecordException.class).hasMessage("bad v");
		assertThat(processed.outputs()).isNull();
	}

	@Test
	void anErrorFromAnAsynchronousProcessorIsAFailureNotAThrow() {
		SlotWork work = SlotWork.of(this.settings, (AsyncRecordProcessor<String, String>) (record, output) -> {
			CompletableFuture<Void> stage = new CompletableFuture<>();
			stage.completeExceptionally(new AssertionError("broken"));
			return stage;
		});
		assertThat(work.run(this.raw).failure()).isInstanceOf(IllegalStateException.class)
			.hasRootCauseInstanceOf(AssertionError.class);
	}

	@Test
	void anOutputSentAfterTheStageCompletedIsRefusedAndNotAddedToTheRecord() {
		AtomicReference<Output> kept = new AtomicReference<>();
		SlotWork work = SlotWork.of(this.settings, (AsyncRecordProcessor<String, String>) (record, output) -> {
			kept.set(output);
			output.toDestination(record.key(), "first", null);
			return CompletableFuture.completedFuture(null);
		});
		ProcessedRecord processed = work.run(this.raw);
		assertThatIllegalStateException().isThrownBy(() -> kept.get().toDestination("k", "late", null))
			.withMessageContaining("stage has completed");
		assertThat(processed.outputs()).singleElement()
			.satisfies((output) -> assertThat(new String(output.value())).isEqualTo("first"));
		assertThat(processed.tombstone()).isFalse();
	}

	@Test
	void aFailingRecordTracingNeverFailsTheRecord() {
		WorkerSettings observed = this.settings
			.toBuilder().observations(new WorkerObservations(ObservationRegistry.NOOP, (record, worker, groupId) -> {
				throw new IllegalStateException("broken tracer");
			})).build();
		RecordProcessor<String, String> blocking = (record, output) -> output.toDestination(record.key(), "out", null);
		AsyncRecordProcessor<String, String> async = (record, output) -> {
			output.toDestination(record.key(), "out", null);
			return CompletableFuture.completedFuture(null);
		};
		for (SlotWork work : new SlotWork[] { SlotWork.of(observed, blocking), SlotWork.of(observed, async) }) {
			ProcessedRecord processed = work.run(this.raw);
			assertThat(processed.failure()).isNull();
			assertThat(processed.outputs()).singleElement()
				.satisfies((output) -> assertThat(new String(output.value())).isEqualTo("out"));
		}
	}

	@Test
	void aSlotTracingThatThrowsEverywhereNeverFailsTheRecordNorTheSlot() {
		RecordTracing broken = new RecordTracing() {

			@Override
			public RecordTrace start(ConsumerRecord<byte[], byte[]> record, String worker, String groupId) {
				throw new IllegalStateException("broken tracer");
			}

			@Override
			public SlotTracing slot(String worker, String groupId) {
				return new SlotTracing() {

					@Override
					public RecordTrace start(ConsumerRecord<byte[], byte[]> record) {
						throw new IllegalStateException("broken slot tracing");
					}

					@Override
					public void transactionEnded() {
						throw new IllegalStateException("broken slot tracing");
					}

					@Override
					public void close() {
						throw new IllegalStateException("broken slot tracing");
					}

				};
			}

		};
		SlotWork work = SlotWork.of(this.settings.toBuilder().observations(new WorkerObservations(ObservationRegistry.NOOP,
				broken)).build(), (RecordProcessor<String, String>) (record, output) -> output.toDestination(record.key(),
						"out", null));
		ProcessedRecord processed = work.run(this.raw);
		assertThat(processed.failure()).isNull();
		assertThat(processed.outputs()).hasSize(1);
		work.transactionEnded();
		work.close();
		RecordTracing noSlot = new RecordTracing() {

			@Override
			public RecordTrace start(ConsumerRecord<byte[], byte[]> record, String worker, String groupId) {
				return RecordTrace.NONE;
			}

			@Override
			public SlotTracing slot(String worker, String groupId) {
				throw new IllegalStateException("no slot tracing");
			}

		};
		assertThat(SlotWork.of(this.settings.toBuilder().observations(new WorkerObservations(ObservationRegistry.NOOP,
				noSlot)).build(), (RecordProcessor<String, String>) (record, output) -> output.toDestination(record.key(),
						"out", null))
			.run(this.raw)
			.outputs()).hasSize(1);
	}

	@Test
	void aTraceThatThrowsEverywhereNeverFailsTheRecord() {
		RecordTrace broken = new RecordTrace() {

			@Override
			public Scope openScope() {
				throw new IllegalStateException("broken scope");
			}

			@Override
			public void inject(ConsumerRecord<byte[], byte[]> input, Headers output) {
				throw new IllegalStateException("broken propagator");
			}

			@Override
			public void error(Throwable failure) {
				throw new IllegalStateException("broken span");
			}

			@Override
			public void end() {
				throw new IllegalStateException("broken span");
			}

		};
		WorkerSettings traced = this.settings
			.toBuilder().observations(new WorkerObservations(ObservationRegistry.NOOP, (record, worker, groupId) -> broken)).build();
		ProcessedRecord processed = SlotWork
			.of(traced, (RecordProcessor<String, String>) (record, output) -> output.toDestination(record.key(), "out",
					null))
			.run(this.raw);
		assertThat(processed.failure()).isNull();
		assertThat(processed.outputs()).singleElement()
			.satisfies((output) -> assertThat(new String(output.value())).isEqualTo("out"));
		processed.trace().end();
		ProcessedRecord failed = SlotWork.of(traced, (RecordProcessor<String, String>) (record, output) -> {
			throw new InvalidRecordException("bad");
		}).run(this.raw);
		assertThat(failed.failure()).isInstanceOf(InvalidRecordException.class);
		failed.trace().end();
	}

	@Test
	void anAsynchronousRecordDroppedByAnInterruptEndsItsTraceWithItsStage() {
		OpenTraces traces = new OpenTraces();
		CompletableFuture<Void> stage = new CompletableFuture<>();
		SlotWork work = SlotWork.of(this.settings.toBuilder().observations(new WorkerObservations(ObservationRegistry.NOOP, traces)).build(),
				(AsyncRecordProcessor<String, String>) (record, output) -> stage);
		Thread.currentThread().interrupt();
		ProcessedRecord processed;
		try {
			processed = work.run(this.raw);
		}
		finally {
			Thread.interrupted();
		}
		assertThat(processed.failure()).isInstanceOf(InterruptedException.class);
		assertThat(traces.open()).isOne();
		stage.complete(null);
		assertThat(traces.open()).isZero();
	}

}
