package dev.lockstep.registry.test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * Sample records of the test schemas.
 */
public final class TestRecords {

	private TestRecords() {
	}

	/**
	 * A shipment with a value in every field, every Avro type represented.
	 * @return a new shipment
	 */
	public static Shipment shipment() {
		return Shipment.newBuilder()
			.setId(42L)
			.setCarrier(Carrier.COURIER)
			.setLabel(ByteBuffer.wrap(new byte[] { 'x' }))
			.setChecksum(new Checksum(new byte[] { 1, 2, 3, 4 }))
			.setItems(List.of("box", "crate"))
			.setAttributes(Map.of("floor", 3L))
			.setNote("leave at door")
			.setWeight(12.5)
			.setFragile(true)
			.setRatio(0.25f)
			.setParts(List.of(new Part("sku-1", 2)))
			.build();
	}

}
