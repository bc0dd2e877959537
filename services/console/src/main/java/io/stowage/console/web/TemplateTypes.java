package io.stowage.console.web;

import io.quarkus.qute.TemplateData;
import io.stowage.console.domain.Condition;
import io.stowage.console.domain.EvidenceLink;
import io.stowage.console.domain.Failure;
import io.stowage.console.domain.FreeRow;
import io.stowage.console.domain.Release;
import io.stowage.console.domain.VolumeDirectory;

/** Lets the templates read the framework-free domain records (Qute value resolvers generated at build time). */
@TemplateData(target = Condition.class)
@TemplateData(target = EvidenceLink.class)
@TemplateData(target = Failure.class)
@TemplateData(target = Release.class)
@TemplateData(target = FreeRow.class)
@TemplateData(target = VolumeDirectory.class)
final class TemplateTypes {
    private TemplateTypes() {
    }
}
