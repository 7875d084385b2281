package dev.lockstep.worker;

import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.GroupType;

/**
 * Every {@link WorkerTests} scenario under the consumer group protocol of KIP-848
 * ({@code group.protocol=consumer}): assignment by the broker, the rebalance callbacks
 * (commit before revocation), {@code groupMetadata()} fencing, a second instance joining
 * and the first leaving.
 */
class ConsumerGroupProtocolWorkerTests extends WorkerTests {

	@Override
	Map<String, Object> groupProtocol() {
		return Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
	}

	@Override
	GroupType groupType() {
		return GroupType.CONSUMER;
	}

}
