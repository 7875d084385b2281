package dev.lockstep.registry.protobuf.test;

import com.google.protobuf.Timestamp;

/**
 * Protobuf test messages that use every construct of {@code orders.proto}.
 */
public final class TestMessages {

	private TestMessages() {
	}

	/**
	 * Return an order with every kind of field set.
	 * @return the order
	 */
	public static Order order() {
		return Order.newBuilder()
			.setOrderId("o-1")
			.setCustomer("c-7")
			.setAmountCents(12_500)
			.setStatus(Order.Status.SHIPPED)
			.addLines(Order.Line.newBuilder().setSku("sku-1").setQuantity(2)
				.setDiscount(Order.Line.Discount.newBuilder().setPercent(10)))
			.putAttributes("channel", "web")
			.setNote("")
			.setPlacedAt(Timestamp.newBuilder().setSeconds(1_764_633_600L).setNanos(5))
			.setVoucher("v-9")
			.build();
	}

}
