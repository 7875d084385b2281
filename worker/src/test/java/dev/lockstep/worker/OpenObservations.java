package dev.lockstep.worker;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;

/**
 * Observes every observation, for tests that check each one started is stopped.
 */
final class OpenObservations implements ObservationHandler<Observation.Context> {

	private final AtomicInteger open = new AtomicInteger();

	private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

	@Override
	public void onStart(Observation.Context context) {
		this.open.incrementAndGet();
	}

	@Override
	public void onStop(Observation.Context context) {
		this.open.decrementAndGet();
		this.stopped.add(context);
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return true;
	}

	/** Observations started and not yet stopped. */
	int open() {
		return this.open.get();
	}

	/** Contexts of the stopped observations, in the order they stopped. */
	List<Observation.Context> stopped() {
		return this.stopped;
	}

}
