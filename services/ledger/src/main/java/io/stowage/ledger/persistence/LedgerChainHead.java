package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * Table {@code ledger_chain_head}: its one row (id 1, created by migration V2) holds the seq and hash of the
 * last link of the event chain. Every append locks it, which serialises appends across ledger instances.
 */
@Entity
@Table(name = "ledger_chain_head")
public class LedgerChainHead extends PanacheEntityBase {
    /** The id of the one row. */
    public static final int ID = 1;

    @Id
    @Column(name = "id")
    public int id;
    @Column(name = "seq", nullable = false)
    public long seq;
    @Column(name = "chain_hash", nullable = false, length = 64)
    public String chainHash;
}
