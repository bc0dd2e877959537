package io.stowage.console.web;

import io.stowage.console.session.Viewer;

/** Small helpers the page resources share. */
final class Pages {
    private Pages() {
    }

    /** @return the viewer as the page header shows them (never the token) */
    static Views.Who who(Viewer viewer) {
        return viewer == null ? null : new Views.Who(viewer.name(), viewer.role(), viewer.operator());
    }
}
