package dev.lockstep.registry.server;

import java.io.IOException;

import com.sun.net.httpserver.HttpExchange;

/**
 * Sees each request before the registry answers it, and may answer it instead: how a test
 * registry misbehaves on demand (fails, stalls, drops the connection).
 */
@FunctionalInterface
public interface RequestInterceptor {

	/**
	 * Look at a request, and answer it or not.
	 * @param exchange the request
	 * @param methodAndPath its method, a space and its decoded path below the registry's
	 * prefix, such as {@code GET /schemas/ids/1}
	 * @param registry the registry, to answer normally after all
	 * @return whether the request was answered
	 * @throws IOException when answering fails
	 */
	boolean intercept(HttpExchange exchange, String methodAndPath, EmbeddedSchemaRegistry registry) throws IOException;

}
