package dev.lockstep.sample;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.lockstep.worker.InvalidRecordException;
import dev.lockstep.worker.ValueTransformer;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.log.LogAccessor;
import org.springframework.stereotype.Component;

/**
 * The business logic: validate an order and upper-case its status. Keys, headers and
 * tombstones are the worker's business, not this bean's. Thread-safe (it keeps no
 * state), so the worker may run it under ordering {@code key} or {@code none}.
 */
@Component
public class OrderNormalizer implements ValueTransformer<Order, Order> {

	private static final LogAccessor logger = new LogAccessor(OrderNormalizer.class);

	private static final Set<String> STATUSES = Set.of("PAID", "REFUNDED");

	private final Duration delay;

	/**
	 * Create the normalizer.
	 * @param delay how long each order waits first, as for a call to a remote service
	 * ({@code sample.processing-delay}, none by default): shows what ordering {@code key}
	 * does for a slow processor
	 */
	public OrderNormalizer(@Value("${sample.processing-delay:0ms}") Duration delay) {
		this.delay = delay;
	}

	@Override
	public Order transform(Order order) throws InterruptedException {
		if (!this.delay.isZero()) {
			TimeUnit.NANOSECONDS.sleep(this.delay.toNanos());
		}
		String status = order.getStatus().toUpperCase(Locale.ROOT);
		if (order.getId() <= 0 || order.getAmountCents() < 0 || !STATUSES.contains(status)) {
			throw new InvalidRecordException("invalid order " + order.getId() + " (status " + order.getStatus()
					+ ", amount_cents " + order.getAmountCents() + ")");
		}
		// At debug level, each order's line carries its trace id (the worker's scope).
		logger.debug(() -> "normalized order " + order.getId() + ": " + order.getStatus() + " -> " + status);
		return new Order(order.getId(), status, order.getAmountCents());
	}

}
