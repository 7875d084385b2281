package dev.lockstep.autoconfigure.observation;

import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TracerSamplingTests {

	@Test
	void aParentBasedSamplerKeepingARemoteParentsDecisionIsParentBased() {
		assertThat(TracerSampling.ofDescription(Sampler.parentBased(Sampler.traceIdRatioBased(0.1)).getDescription())
			.parentBased()).isTrue();
		assertThat(TracerSampling.ofDescription(Sampler.parentBased(Sampler.alwaysOff()).getDescription())
			.parentBased()).isTrue();
	}

	@Test
	void anyOtherSamplerIsAskedPerRecord() {
		assertThat(TracerSampling.ofDescription(Sampler.traceIdRatioBased(0.1).getDescription()).parentBased())
			.isFalse();
		assertThat(TracerSampling.ofDescription(Sampler.alwaysOn().getDescription()).parentBased()).isFalse();
		assertThat(TracerSampling
			.ofDescription(Sampler.parentBasedBuilder(Sampler.alwaysOff())
				.setRemoteParentNotSampled(Sampler.alwaysOn())
				.build()
				.getDescription())
			.parentBased()).isFalse();
	}

}
