package io.stowage.shardbuilder.architecture;

import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** Produces the layering rule the shard-builder's architecture test applies; consumes nothing but package names. */
final class ArchitectureConditions {

    /** Framework packages a {@code domain} class must not use (CONVENTIONS.md: pure logic, no framework types). */
    static final String[] FRAMEWORKS = {"io.quarkus..", "io.smallrye..", "jakarta..", "org.eclipse.microprofile..",
            "io.vertx..", "org.apache.kafka..", "org.hibernate.."};

    private ArchitectureConditions() {
    }

    /** @return the rule "no class in {@code ..domain..} depends on a framework type", over imported classes */
    static ArchRule domainIsFrameworkFree() {
        return noClasses().that().resideInAPackage("..domain..")
                .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
                .because("domain classes are pure logic, tested with plain JUnit (CONVENTIONS.md)");
    }
}
