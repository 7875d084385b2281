package dev.lockstep.worker;

import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.worker.observation.RecordTrace;
import dev.lockstep.worker.observation.RecordTracing;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Traces every record with a trace that counts itself, for tests that check each trace
 * started is ended exactly once.
 */
public final class OpenTraces implements RecordTracing {

	private final AtomicInteger open = new AtomicInteger();

	@Override
	public RecordTrace start(ConsumerRecord<byte[], byte[]> record, String worker, String groupId) {
		this.open.incrementAndGet();
		return new RecordTrace() {

			private boolean ended;

			@Override
			public synchronized void end() {
				if (!this.ended) {
					this.ended = true;
					OpenTraces.this.open.decrementAndGet();
				}
			}

		};
	}

	/** Traces started and not yet ended. */
	public int open() {
		return this.open.get();
	}

}
