package dev.lockstep.registry;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects an HTTP response body up to a limit and fails as soon as it is exceeded, so a
 * hostile registry cannot make the client buffer more than the limit.
 */
final class BoundedBodySubscriber implements HttpResponse.BodySubscriber<byte[]> {

	private final int maxBytes;

	private final long declaredLength;

	private final CompletableFuture<byte[]> result = new CompletableFuture<>();

	private byte[] bytes = new byte[0];

	private int count;

	private Flow.Subscription subscription;

	BoundedBodySubscriber(int maxBytes, long declaredLength) {
		this.maxBytes = maxBytes;
		this.declaredLength = declaredLength;
	}

	static HttpResponse.BodyHandler<byte[]> handler(int maxBytes) {
		return (info) -> new BoundedBodySubscriber(maxBytes, info.headers().firstValueAsLong("Content-Length").orElse(-1));
	}

	@Override
	public CompletionStage<byte[]> getBody() {
		return this.result;
	}

	@Override
	public void onSubscribe(Flow.Subscription subscription) {
		this.subscription = subscription;
		if (this.declaredLength > this.maxBytes) {
			tooLarge(this.declaredLength);
			return;
		}
		subscription.request(Long.MAX_VALUE);
	}

	@Override
	public void onNext(List<ByteBuffer> buffers) {
		if (this.result.isDone()) {
			return;
		}
		for (ByteBuffer buffer : buffers) {
			long total = (long) this.count + buffer.remaining();
			if (total > this.maxBytes) {
				tooLarge(total);
				return;
			}
			if (total > this.bytes.length) {
				this.bytes = Arrays.copyOf(this.bytes, (int) Math.min(this.maxBytes,
						Math.max(total, 2L * this.bytes.length)));
			}
			int length = buffer.remaining();
			buffer.get(this.bytes, this.count, length);
			this.count += length;
		}
	}

	@Override
	public void onError(Throwable throwable) {
		this.result.completeExceptionally(throwable);
	}

	@Override
	public void onComplete() {
		this.result.complete(Arrays.copyOf(this.bytes, this.count));
	}

	private void tooLarge(long size) {
		this.subscription.cancel();
		this.result.completeExceptionally(new ResponseTooLargeException(
				"Response body of " + size + "+ bytes exceeds the limit of " + this.maxBytes + " bytes"));
	}

	/**
	 * The response body is larger than allowed.
	 */
	static final class ResponseTooLargeException extends IOException {

		private static final long serialVersionUID = 1L;

		ResponseTooLargeException(String message) {
			super(message);
		}

	}

}
