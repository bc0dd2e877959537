package io.stowage.uploader.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** Produces the architecture rules and conditions the uploader's tests share; consumes nothing but class names. */
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

    /** @return a condition failing for a method whose return or parameter types involve a subtype of {@code type} */
    static ArchCondition<JavaMethod> exposeNoTypeAssignableTo(Class<?> type) {
        return new ArchCondition<>("expose no type assignable to " + type.getSimpleName()) {
            @Override
            public void check(JavaMethod method, ConditionEvents events) {
                boolean exposes = method.getReturnType().getAllInvolvedRawTypes().stream()
                        .anyMatch(raw -> raw.isAssignableTo(type))
                        || method.getParameterTypes().stream().flatMap(p -> p.getAllInvolvedRawTypes().stream())
                        .anyMatch((JavaClass raw) -> raw.isAssignableTo(type));
                events.add(new SimpleConditionEvent(method, !exposes,
                        method.getFullName() + (exposes ? " exposes " : " does not expose ") + type.getName()));
            }
        };
    }
}
