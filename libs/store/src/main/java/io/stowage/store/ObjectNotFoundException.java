package io.stowage.store;

/** There is no object at the key (HTTP 404 / NoSuchKey): an answer about the object, not a failure of the store. */
public class ObjectNotFoundException extends StoreException {
    public ObjectNotFoundException(String bucket, String key) {
        super("no object at " + bucket + "/" + key, null);
    }
}
