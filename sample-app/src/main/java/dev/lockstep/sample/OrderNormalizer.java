package dev.lockstep.sample;

import java.util.Locale;
import java.util.Set;

import dev.lockstep.worker.InvalidRecordException;
import dev.lockstep.worker.ValueTransformer;

import org.springframework.stereotype.Component;

/**
 * The business logic: validate an order and upper-case its status. Keys, headers and
 * tombstones are the worker's business, not this bean's.
 */
@Component
public class OrderNormalizer implements ValueTransformer<Order, Order> {

	private static final Set<String> STATUSES = Set.of("PAID", "REFUNDED");

	@Override
	public Order transform(Order order) {
		String status = order.getStatus().toUpperCase(Locale.ROOT);
		if (order.getId() <= 0 || order.getAmountCents() < 0 || !STATUSES.contains(status)) {
			throw new InvalidRecordException("invalid order " + order.getId() + " (status " + order.getStatus()
					+ ", amount_cents " + order.getAmountCents() + ")");
		}
		return new Order(order.getId(), status, order.getAmountCents());
	}

}
