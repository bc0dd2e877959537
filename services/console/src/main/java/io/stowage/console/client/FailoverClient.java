package io.stowage.console.client;

import jakarta.ws.rs.ProcessingException;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A client of a service that runs as several instances at several base URLs: the provider-adapter's active instance and
 * its standbys (a standby does not listen), the verifier's and the gatekeeper's instances. It holds one client per base
 * URL and answers a proxy of the API that sends each call to the instance that answered last, moving on to the next
 * instance (in the order given, wrapping round) only when the connection is refused.
 *
 * <p>Only a refused connection moves a call: it means the request reached no server, so sending it to another instance
 * cannot do anything twice, a POST included. Any other failure (a read timeout, an error answer, a reset after the request
 * was sent) belongs to the call and is thrown as it came. When every instance refuses, the last refusal is thrown.
 */
public final class FailoverClient {
    private FailoverClient() {
    }

    /**
     * @param api   the API interface (a JAX-RS client interface)
     * @param urls  the instances' base URLs, at least one, the first tried first (instance 1 of the service)
     * @param build makes the client of one base URL (called once per URL, here)
     * @param <T>   the API type
     * @return a proxy of {@code api} whose every method call goes to one instance as described above
     * @throws IllegalArgumentException when {@code urls} is empty
     */
    public static <T> T of(Class<T> api, List<String> urls, Function<String, T> build) {
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("no base URL for " + api.getSimpleName());
        }
        List<T> clients = new ArrayList<>(urls.size());
        for (String url : urls) {
            clients.add(build.apply(url.strip()));
        }
        return api.cast(Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, new Handler<>(clients)));
    }

    /**
     * @param failure what a client call threw
     * @return whether it is a refused connection (a {@link ConnectException} anywhere in its causes; the REST client
     *         wraps Netty's, a subclass, in a {@link ProcessingException})
     */
    public static boolean refused(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }

    private static final class Handler<T> implements InvocationHandler {
        private final List<T> clients;
        /** The index of the instance that answered last: the first one a call tries. */
        private volatile int current;

        Handler(List<T> clients) {
            this.clients = List.copyOf(clients);
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "FailoverClient" + clients;
                };
            }
            int first = current;
            Throwable last = null;
            for (int i = 0; i < clients.size(); i++) {
                int k = (first + i) % clients.size();
                try {
                    Object answer = method.invoke(clients.get(k), args);
                    current = k;
                    return answer;
                } catch (InvocationTargetException e) {
                    if (!refused(e.getCause())) {
                        throw e.getCause();
                    }
                    last = e.getCause();
                }
            }
            throw last;
        }
    }
}
