package dev.lockstep.test.kafka;

/**
 * A cluster that something outside the test started, reached through
 * {@code LOCKSTEP_TEST_BOOTSTRAP_SERVERS}. Closing it leaves the cluster running.
 *
 * @param bootstrapServers the cluster's {@code bootstrap.servers}
 */
record ExternalKafkaCluster(String bootstrapServers) implements KafkaBroker {

	@Override
	public String description() {
		return "external cluster " + this.bootstrapServers;
	}

	@Override
	public void close() {
	}

}
