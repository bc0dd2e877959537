package io.stowage.store;

/**
 * One rule of a bucket's lifecycle configuration, as GetBucketLifecycleConfiguration answered it, reduced to what
 * decides whether the store itself could remove something: where the rule applies and what it removes after how long.
 *
 * @param id                        the rule's ID ("" when the store gave none)
 * @param enabled                   Status {@code Enabled}; a {@code Disabled} rule does nothing
 * @param prefix                    the key prefix the rule applies to (Filter/Prefix, Filter/And/Prefix or the legacy
 *                                  top-level Prefix); "" when it has none, i.e. the whole bucket
 * @param narrowed                  the filter also has a tag or object-size condition (it may apply to fewer keys than
 *                                  the prefix says, never to more)
 * @param expirationDays            Expiration/Days, or null
 * @param expirationDate            Expiration/Date (ISO-8601 as the store sent it), or null
 * @param noncurrentExpirationDays  NoncurrentVersionExpiration/NoncurrentDays, or null
 * @param abortIncompleteAfterDays  AbortIncompleteMultipartUpload/DaysAfterInitiation, or null
 * @param transitions               number of Transition elements (storage-class changes; they remove nothing)
 */
public record LifecycleRule(String id, boolean enabled, String prefix, boolean narrowed, Integer expirationDays,
                            String expirationDate, Integer noncurrentExpirationDays, Integer abortIncompleteAfterDays,
                            int transitions) {

    /** @return whether the rule removes current objects (an Expiration with Days or Date) */
    public boolean expiresObjects() {
        return expirationDays != null || expirationDate != null;
    }
}
