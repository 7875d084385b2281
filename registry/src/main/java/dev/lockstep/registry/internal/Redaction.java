package dev.lockstep.registry.internal;

/**
 * Hiding credentials in URLs before they reach a message or a log. Internal: not API.
 */
public final class Redaction {

	private Redaction() {
	}

	/**
	 * Return a URL as typed with the password of its user information replaced by
	 * {@code ****} ({@code http://user:****@host}), or all of the user information when it
	 * has no password. Works on text that is not a valid URI too, so that an unparsable URL
	 * is never echoed: everything before the last {@code @} (after the scheme) counts as
	 * user information, which hides too much rather than too little.
	 * @param url the URL, possibly malformed
	 * @return the URL without its password
	 */
	public static String url(String url) {
		if (url == null) {
			return null;
		}
		int at = url.lastIndexOf('@');
		if (at < 0) {
			return url;
		}
		int scheme = url.indexOf("://");
		int start = (scheme >= 0 && scheme < at) ? scheme + 3 : 0;
		String userInfo = url.substring(start, at);
		int colon = userInfo.indexOf(':');
		String hidden = (colon >= 0) ? userInfo.substring(0, colon) + ":****" : "****";
		return url.substring(0, start) + hidden + url.substring(at);
	}

}
