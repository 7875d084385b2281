package dev.lockstep.sample;

/**
 * Placeholder for the order-normalization sample. The worker, its commands ({@code seed},
 * {@code transform}, {@code verify}, {@code demo}) and the embedded broker arrive with the
 * sample-app issue; until then this says so instead of pretending to run.
 */
public final class SampleApplication {

	private SampleApplication() {
	}

	/**
	 * Explain that the sample is not built yet.
	 * @param args ignored
	 */
	public static void main(String[] args) {
		String command = (args.length > 0) ? args[0] : "(none)";
		System.out.println("Lockstep sample app: command " + command + " is not available yet.");
		System.out.println("The order-normalization worker is not built yet; README's status table says what works.");
	}

}
