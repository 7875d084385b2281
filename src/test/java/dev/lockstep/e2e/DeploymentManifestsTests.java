package dev.lockstep.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

import static dev.lockstep.e2e.KubernetesManifests.at;
import static dev.lockstep.e2e.KubernetesManifests.list;
import static dev.lockstep.e2e.KubernetesManifests.map;
import static dev.lockstep.e2e.KubernetesManifests.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Kubernetes manifests of {@code deploy/kubernetes} checked against the sample they
 * deploy. A pod of the Deployment and one of the StatefulSet are started as the platform
 * would start them: the sample jar with the container's environment, the ConfigMap written
 * where the container mounts it (the directory relocated under a temporary one, the
 * environment's references to it too), {@code HOSTNAME} the pod's name, the variables
 * that tell a process it runs on Kubernetes. What the test adds: the broker process's
 * address in place of the cluster's, a free port on 127.0.0.1 in place of the container's,
 * and the {@code configprops} and {@code env} endpoints it reads the running pod's
 * configuration from. Then the probes, ports, scrape annotations, configuration keys,
 * identities, autoscalers and grace period are read against the running pods.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DeploymentManifestsTests {

	private static final Path DEPLOY = Path.of(System.getProperty("lockstep.deploy.dir", "deploy"));

	private static final KubernetesManifests MANIFESTS = KubernetesManifests.read(DEPLOY.resolve("kubernetes"));

	// Where Spring Boot's own default applies when no configuration sets a port.
	private static final int SPRING_BOOT_DEFAULT_PORT = 8080;

	private static final List<String> PROBES = List.of("startupProbe", "livenessProbe", "readinessProbe");

	private static final String LAG_METRIC = "lockstep_worker_lag";

	private final KafkaBrokerProcess broker = KafkaBrokerProcess.start();

	private final List<Pod> pods = new ArrayList<>();

	@RegisterExtension
	final TestWatcher logTails = new TestWatcher() {
		@Override
		public void testFailed(ExtensionContext context, Throwable cause) {
			DeploymentManifestsTests.this.pods.forEach((pod) -> System.out.println(pod.process().logTail()));
		}
	};

	@BeforeAll
	void startOnePodOfEachWorkload(@TempDir Path workDir) {
		Map<String, Object> deployment = MANIFESTS.only("Deployment");
		Map<String, Object> statefulSet = MANIFESTS.only("StatefulSet");
		// A ReplicaSet's pod: <deployment>-<template hash>-<5 characters>; a StatefulSet's: <set>-<ordinal>.
		this.pods.add(start(deployment, text(deployment, "metadata", "name") + "-7d4b9c8f6d-x2kqp", workDir));
		this.pods.add(start(statefulSet, text(statefulSet, "metadata", "name") + "-0", workDir));
		for (Pod pod : this.pods) {
			// A configuration it refuses ends the process: no need to wait further.
			pod.process().awaitUntil(pod.name() + " started (its liveness probe answering) or ended",
					Duration.ofMinutes(4), () -> !pod.process().isAlive()
							|| pod.actuator().statusCode("/actuator/health/liveness") == 200);
			assertThat(pod.process().isAlive()).as("%s running\n%s", pod.name(), pod.process().logTail()).isTrue();
		}
	}

	@AfterAll
	void stopPodsAndBroker() throws InterruptedException {
		for (Pod pod : this.pods) {
			pod.process().stop(Duration.ofSeconds(60));
		}
		this.broker.close();
	}

	@Test
	@Order(1)
	void everyProbeAnswersOnThePortTheApplicationListensOn() {
		for (Pod pod : this.pods) {
			Map<String, Object> container = pod.container();
			for (String probe : PROBES) {
				Map<String, Object> httpGet = map(container, probe, "httpGet");
				assertThat(containerPort(container, at(httpGet, "port"))).as("%s's %s port", pod.name(), probe)
					.isEqualTo(pod.listeningPort());
				String path = text(httpGet, "path");
				pod.process().awaitUntil(pod.name() + "'s " + probe + " " + path + " answering 200",
						Duration.ofMinutes(4), () -> pod.actuator().statusCode(path) == 200);
				assertThat(pod.actuator().json(path).path("status").asText()).as(path).isEqualTo("UP");
			}
		}
	}

	@Test
	@Order(2)
	void thePrometheusAnnotationsScrapeTheLagOfEveryPartitionFromOnePodEach() {
		Map<Integer, Integer> publishers = new TreeMap<>();
		for (Pod pod : this.pods) {
			Map<String, Object> annotations = map(pod.workload(), "spec", "template", "metadata", "annotations");
			assertThat(text(annotations, "prometheus.io/scrape")).isEqualTo("true");
			assertThat(Integer.parseInt(text(annotations, "prometheus.io/port"))).as("%s's scrape port", pod.name())
				.isEqualTo(pod.listeningPort());
		}
		// Each pod publishes the lag of the partitions it owns: the autoscaler's sum counts each once.
		int partitions = inputPartitions();
		this.pods.get(0).process().awaitUntil("every input partition's lag published by exactly one pod",
				Duration.ofMinutes(2), () -> {
					publishers.clear();
					for (Pod pod : this.pods) {
						String path = text(pod.workload(), "spec", "template", "metadata", "annotations",
								"prometheus.io/path");
						for (Map<String, String> labels : pod.actuator().series(path, LAG_METRIC)) {
							publishers.merge(Integer.parseInt(labels.get("partition")), 1, Integer::sum);
						}
					}
					return publishers.size() == partitions && publishers.values().stream().allMatch((n) -> n == 1);
				});
	}

	@Test
	@Order(3)
	void everyKeyOfTheMountedConfigMapIsReadFromItsFileAndBindsToAProperty() {
		for (Pod pod : this.pods) {
			assertThat(pod.configFiles()).as("%s's mounted configuration files", pod.name()).isNotEmpty();
			JsonNode beans = pod.actuator().json("/actuator/configprops").path("contexts").elements().next()
				.path("beans");
			// Unknown keys under lockstep (and Kafka keys in its and Spring Boot's maps) are
			// refused at start-up; these checks catch the rest (spring.*, management.*).
			pod.configFiles().forEach((file, yaml) -> KubernetesManifests.leaves(yaml).forEach((key, value) -> {
				List<String> setBy = new ArrayList<>();
				for (JsonNode source : pod.actuator().json("/actuator/env/" + key).path("propertySources")) {
					if (source.has("property")) {
						setBy.add(source.path("name").asText());
					}
				}
				assertThat(setBy).as("%s: the property sources setting %s", pod.name(), key)
					.anyMatch((name) -> name.contains(file.toString()));
				assertThat(boundInput(beans, key)).as("%s: %s bound to a configuration property", pod.name(), key)
					.hasValueSatisfying((input) -> assertThat(input.findValue("origin")).isNotNull());
			}));
		}
	}

	@Test
	@Order(4)
	void theDeploymentsPodGetsAGeneratedIdentityAndTheStatefulSetsItsName() {
		Pod deploymentPod = this.pods.get(0);
		Pod statefulSetPod = this.pods.get(1);
		assertThat(deploymentPod.actuator().json("/actuator/info").at("/lockstep/instance/kind").asText())
			.isEqualTo("GENERATED");
		JsonNode identity = statefulSetPod.actuator().json("/actuator/info").at("/lockstep/instance");
		assertThat(identity.path("kind").asText()).isEqualTo("STATEFUL_SET");
		assertThat(identity.path("id").asText()).isEqualTo(statefulSetPod.name());
		assertThat(text(statefulSetPod.workload(), "spec", "serviceName"))
			.isEqualTo(text(MANIFESTS.only("Service"), "metadata", "name"));
		assertThat(text(MANIFESTS.only("Service"), "spec", "clusterIP")).as("the StatefulSet's Service").isEqualTo("None");
	}

	@Test
	@Order(5)
	void bothAutoscalersScaleTheDeploymentOnTheRunningWorkersGroupAndLagWithinItsPartitions() {
		Pod pod = this.pods.get(0);
		String deployment = text(pod.workload(), "metadata", "name");
		JsonNode lockstep = lockstepProperties(pod);
		JsonNode worker = lockstep.path("workers").elements().next();
		int slots = worker.path("concurrency").asInt();
		// Pods beyond this have no partition to work on.
		int capacity = (inputPartitions() + slots - 1) / slots;

		Map<String, Object> keda = MANIFESTS.only("ScaledObject");
		assertThat(text(keda, "spec", "scaleTargetRef", "name")).isEqualTo(deployment);
		Map<String, Object> trigger = map(keda, "spec", "triggers", 0, "metadata");
		assertThat(text(trigger, "consumerGroup")).isEqualTo(worker.path("groupId").asText());
		assertThat(worker.path("sourceTopics").toString()).contains("\"" + text(trigger, "topic") + "\"");
		assertThat(text(trigger, "bootstrapServers"))
			.isEqualTo(pod.configuredValue("spring.kafka.bootstrap-servers").orElseThrow());
		assertThat((Integer) at(keda, "spec", "maxReplicaCount")).as("KEDA's replicas at most")
			.isLessThanOrEqualTo(capacity);

		Map<String, Object> hpa = MANIFESTS.only("HorizontalPodAutoscaler");
		assertThat(text(hpa, "spec", "scaleTargetRef", "kind")).isEqualTo("Deployment");
		assertThat(text(hpa, "spec", "scaleTargetRef", "name")).isEqualTo(deployment);
		assertThat((Integer) at(hpa, "spec", "maxReplicas")).as("the HPA's replicas at most")
			.isLessThanOrEqualTo(capacity);
		Map<String, Object> rule = map(adapterValues(), "rules", "external", 0);
		assertThat(text(rule, "seriesQuery")).startsWith(LAG_METRIC + "{");
		Map<String, Object> metric = map(hpa, "spec", "metrics", 0, "external", "metric");
		assertThat(text(metric, "name")).isEqualTo(text(rule, "name", "as"));
		// The HPA's selector matches series the pod publishes, every label on one series.
		Map<String, Object> selector = map(metric, "selector", "matchLabels");
		assertThat(selector).isNotEmpty();
		String path = text(pod.workload(), "spec", "template", "metadata", "annotations", "prometheus.io/path");
		assertThat(pod.actuator().series(path, LAG_METRIC)).as("the pod's %s series", LAG_METRIC)
			.anyMatch((labels) -> selector.entrySet()
				.stream()
				.allMatch((label) -> String.valueOf(label.getValue()).equals(labels.get(label.getKey()))));
	}

	@Test
	@Order(6)
	void sigtermStopsEachPodGracefullyWithinItsTerminationGracePeriod() throws InterruptedException {
		for (Pod pod : this.pods) {
			Duration grace = Duration.ofSeconds((Integer) at(pod.workload(), "spec", "template", "spec",
					"terminationGracePeriodSeconds"));
			JsonNode worker = lockstepProperties(pod).path("workers").elements().next();
			assertThat(grace).as("%s's grace period against the workers' shutdown-timeout", pod.name())
				.isGreaterThan(Duration.parse(worker.path("shutdownTimeout").asText()));
			int exit = pod.process().terminate(grace);
			assertThat(exit).as("%s's exit status (-1: killed after the grace period)", pod.name()).isIn(0, 143);
			assertThat(pod.process().output()).contains("Worker normalizer stopped");
		}
	}

	private Pod start(Map<String, Object> workload, String name, Path workDir) {
		Map<String, Object> podSpec = map(workload, "spec", "template", "spec");
		List<Map<String, Object>> containers = list(podSpec, "containers");
		assertThat(containers).as("containers of %s", name).hasSize(1);
		Map<String, Object> container = containers.get(0);
		Path root = workDir.resolve(name);
		Map<Path, String> configFiles = new LinkedHashMap<>();
		Map<String, String> mounts = new LinkedHashMap<>();
		for (Map<String, Object> mount : list(container, "volumeMounts")) {
			String mountPath = text(mount, "mountPath");
			Path local = root.resolve(mountPath.substring(1));
			Map<String, Object> volume = list(podSpec, "volumes").stream()
				.filter((candidate) -> candidate.get("name").equals(mount.get("name")))
				.findFirst()
				.orElseThrow(() -> new AssertionError("No volume " + mount.get("name") + " in " + name));
			Map<String, Object> configMap = MANIFESTS.only("ConfigMap", text(volume, "configMap", "name"));
			map(configMap, "data").forEach((file, content) -> configFiles.put(local.resolve(file), content.toString()));
			mounts.put(mountPath, local.toString());
		}
		Map<String, String> environment = new LinkedHashMap<>(SampleAppProcess.KUBERNETES);
		environment.put("HOSTNAME", name);
		for (Map<String, Object> variable : list(container, "env")) {
			String value = text(variable, "value");
			for (Map.Entry<String, String> mount : mounts.entrySet()) {
				value = value.replace(mount.getKey(), mount.getValue());
			}
			environment.put(text(variable, "name"), value);
		}
		try {
			for (Map.Entry<Path, String> file : configFiles.entrySet()) {
				Files.createDirectories(file.getKey().getParent());
				Files.writeString(file.getKey(), file.getValue());
			}
		}
		catch (IOException ex) {
			throw new AssertionError(ex);
		}
		Actuator actuator = Actuator.onFreePort();
		List<String> args = new ArrayList<>(actuator.args("health,info,prometheus,configprops,env"));
		args.addAll(List.of("--management.endpoint.configprops.show-values=always",
				"--management.endpoint.env.show-values=always",
				"--spring.kafka.bootstrap-servers=" + this.broker.bootstrapServers()));
		SampleAppProcess process = SampleAppProcess.start(workDir, environment, args.toArray(String[]::new));
		return new Pod(name, workload, container, configFiles, process, actuator);
	}

	private static Object adapterValues() {
		try {
			return KubernetesManifests.yaml(Files.readString(DEPLOY.resolve("prometheus-adapter-values.yaml")));
		}
		catch (IOException ex) {
			throw new AssertionError(ex);
		}
	}

	private int inputPartitions() {
		try (Admin admin = Admin
			.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.broker.bootstrapServers()))) {
			return admin.describeTopics(List.of(OrderPipeline.INPUT)).allTopicNames().get()
				.get(OrderPipeline.INPUT).partitions().size();
		}
		catch (Exception ex) {
			throw new AssertionError(ex);
		}
	}

	private static JsonNode lockstepProperties(Pod pod) {
		return bean(pod.actuator().json("/actuator/configprops"), "lockstep").path("properties");
	}

	private static JsonNode bean(JsonNode configprops, String prefix) {
		for (JsonNode bean : configprops.path("contexts").elements().next().path("beans")) {
			if (bean.path("prefix").asText().equals(prefix)) {
				return bean;
			}
		}
		throw new AssertionError("No configuration properties with prefix " + prefix);
	}

	/**
	 * The input a dotted key binds to in {@code /actuator/configprops}: under the bean whose
	 * prefix starts the key, each further segment as written (a map's key, the rest of the
	 * key when a map's keys hold dots) or as the property's camel-case name.
	 */
	private static Optional<JsonNode> boundInput(JsonNode beans, String key) {
		for (JsonNode bean : beans) {
			String prefix = bean.path("prefix").asText();
			if (!key.startsWith(prefix + ".")) {
				continue;
			}
			JsonNode node = bean.path("inputs");
			String[] segments = key.substring(prefix.length() + 1).split("\\.");
			for (int i = 0; i < segments.length; i++) {
				// A map of Kafka settings keeps its keys' dots (consumer."session.timeout.ms").
				String rest = String.join(".", List.of(segments).subList(i, segments.length));
				if (node.has(rest)) {
					node = node.path(rest);
					break;
				}
				node = node.has(segments[i]) ? node.path(segments[i]) : node.path(camelCase(segments[i]));
			}
			if (!node.isMissingNode()) {
				return Optional.of(node);
			}
		}
		return Optional.empty();
	}

	private static String camelCase(String kebab) {
		StringBuilder name = new StringBuilder();
		boolean upper = false;
		for (char c : kebab.toCharArray()) {
			if (c == '-') {
				upper = true;
			}
			else {
				name.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return name.toString();
	}

	/** The containerPort a probe's or annotation's port (a number or a port's name) means. */
	private static int containerPort(Map<String, Object> container, Object port) {
		if (port instanceof Integer number) {
			return number;
		}
		return list(container, "ports").stream()
			.filter((candidate) -> port.equals(candidate.get("name")))
			.map((candidate) -> (Integer) candidate.get("containerPort"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No container port named " + port));
	}

	/** A pod of a workload: its manifest, its mounted configuration, its process and actuator. */
	private record Pod(String name, Map<String, Object> workload, Map<String, Object> container,
			Map<Path, String> configFiles, SampleAppProcess process, Actuator actuator) {

		/**
		 * The port the application listens on for the actuator as its configuration sets
		 * it, the test's own command-line port aside: {@code management.server.port}, else
		 * {@code server.port}, else Spring Boot's default.
		 */
		int listeningPort() {
			return configuredValue("management.server.port").or(() -> configuredValue("server.port"))
				.map(Integer::parseInt)
				.orElse(SPRING_BOOT_DEFAULT_PORT);
		}

		/** A property's value from the pod's configuration, the test's command line left out. */
		Optional<String> configuredValue(String key) {
			String path = "/actuator/env/" + key;
			int status = this.actuator.statusCode(path);
			if (status == 404) {
				return Optional.empty();
			}
			assertThat(status).as("GET %s on %s", path, this.name).isEqualTo(200);
			for (JsonNode source : this.actuator.json(path).path("propertySources")) {
				if (!source.path("name").asText().equals("commandLineArgs") && source.has("property")) {
					return Optional.of(source.at("/property/value").asText());
				}
			}
			return Optional.empty();
		}

	}

}
