package dev.lockstep.e2e;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Input arriving at a steady rate while a scenario runs: the pipeline's orders in id
 * order, a tenth of the rate every 100 ms, never past the pipeline's record count.
 */
final class Feed implements AutoCloseable {

	private final OrderPipeline pipeline;

	private final int perTick;

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final AtomicLong fed = new AtomicLong();

	private final AtomicReference<Exception> failure = new AtomicReference<>();

	private final Thread feeder;

	private final Progress acknowledged = new Progress();

	Feed(OrderPipeline pipeline, int perSecond) {
		this.pipeline = pipeline;
		this.perTick = Math.max(1, perSecond / 10);
		this.feeder = new Thread(this::feed, "feed");
		this.feeder.setDaemon(true);
		this.feeder.start();
	}

	/** When a tick's orders were all acknowledged by the cluster. */
	Progress acknowledged() {
		return this.acknowledged;
	}

	/**
	 * Stop feeding.
	 * @return the last order id fed
	 * @throws Exception when seeding failed (an order may be missing)
	 */
	long stop() throws Exception {
		this.running.set(false);
		this.feeder.join(180_000);
		if (this.failure.get() != null) {
			throw this.failure.get();
		}
		return this.fed.get();
	}

	private void feed() {
		try (KafkaProducer<byte[], byte[]> producer = this.pipeline.producer()) {
			while (this.running.get() && this.fed.get() < this.pipeline.records()) {
				long from = this.fed.get() + 1;
				long to = Math.min(from + this.perTick - 1, this.pipeline.records());
				for (long id = from; id <= to; id++) {
					producer.send(this.pipeline.order(id, false), (metadata, ex) -> {
						if (ex != null) {
							this.failure.compareAndSet(null, ex);
						}
					});
				}
				// Blocks while the broker is down: the feed resumes with it.
				producer.flush();
				this.fed.set(to);
				this.acknowledged.stepped();
				// The pace of the input, not a wait for a condition.
				Thread.sleep(100);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (RuntimeException ex) {
			this.failure.compareAndSet(null, ex);
		}
	}

	@Override
	public void close() throws Exception {
		stop();
	}

}
