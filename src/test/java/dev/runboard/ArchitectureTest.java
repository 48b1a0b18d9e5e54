package dev.runboard;

import dev.runboard.ui.common.UiTasks;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.runboard.session.Session;
import dev.runboard.ui.common.FxUiTasks;
import dev.runboard.ui.RunboardApp;
import javafx.application.Platform;

/** The layers as the README states them (ReadmeLayers): the engine works without a window, and dependencies point down. */
@AnalyzeClasses(packages = "dev.runboard", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    /**
     * The README's layer order (its contributor section, read by {@link ReadmeLayers}),
     * lowest first, with the classes of dev.runboard itself (the launcher) on top: each layer is used only by the
     * layers above it, so dependencies point down and the packages form no cycle; the engine needs nothing of the
     * fronts (cli, ui), the domain (session) nothing of any other layer, and the CLI nothing of the window. The only
     * copy of the order: no rule here names two layers' order again. That the paragraph names every package is
     * ReadmeTruthTest's.
     */
    @ArchTest
    static void eachLayerIsUsedOnlyByTheLayersAboveItAsTheReadmeSays(com.tngtech.archunit.core.domain.JavaClasses classes) {
        java.util.List<String> layers = new java.util.ArrayList<>(ReadmeLayers.lowestFirst());
        java.util.List<String> packages = new java.util.ArrayList<>();
        layers.forEach(layer -> packages.add("dev.runboard." + layer + ".."));
        layers.add("dev.runboard");
        packages.add("dev.runboard");
        com.tngtech.archunit.library.Architectures.LayeredArchitecture order = com.tngtech.archunit.library.Architectures
                .layeredArchitecture().consideringOnlyDependenciesInLayers().withOptionalLayers(true);
        for (int i = 0; i < layers.size(); i++) {
            order = order.layer(layers.get(i)).definedBy(packages.get(i));
        }
        for (int i = 0; i < layers.size() - 1; i++) {
            order = order.whereLayer(layers.get(i))
                    .mayOnlyBeAccessedByLayers(layers.subList(i + 1, layers.size()).toArray(String[]::new));
        }
        order = order.whereLayer("dev.runboard").mayNotBeAccessedByAnyLayer();
        order.because("README.md's Layers paragraph puts them in this order, lowest first: a package uses only"
                + " those named before it (move the import, or the package in the paragraph if the design changed)")
                .check(classes);
    }

    @ArchTest
    static final ArchRule onlyTheUiUsesJavaFx = noClasses()
            .that().resideOutsideOfPackage("dev.runboard.ui..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "atlantafx..", "org.kordamp..")
            .because("only the ui layer may use JavaFX; the engine and CLI run headless");

    @ArchTest
    static final ArchRule theWindowIsAClient = noClasses()
            .that().resideInAPackage("dev.runboard.ui..")
            .and().doNotBelongToAnyOf(RunboardApp.class)
            .should().dependOnClassesThat().resideInAnyPackage("dev.runboard.process..", "dev.runboard.engine..")
            .because("issue #13: views and view-models read state through SessionService; only the composition root"
                    + " (RunboardApp) picks the engine that serves it");

    @ArchTest
    static final ArchRule theWindowHoldsNoSession = noClasses()
            .that().resideInAPackage("dev.runboard.ui..")
            .should().dependOnClassesThat().belongToAnyOf(Session.class)
            .because("issue #13: the window names sessions by id and reads SessionSnapshots; the engine's Session"
                    + " objects stay behind SessionService");

    @ArchTest
    static final ArchRule oneHandOffToTheFxThread = noClasses()
            .that().doNotBelongToAnyOf(FxUiTasks.class)
            .should().callMethod(Platform.class, "runLater", Runnable.class)
            .because("DESIGN.md's threading rule: one hand-off to the FX thread; use UiTasks.fx/onFx (FxUiTasks is the only caller)");

    /** Serialization belongs in store (DESIGN.md: session has no Jackson): JSON names and words live in store.Json and its mix-ins. */
    @ArchTest
    static final ArchRule noJacksonInTheDomain = noClasses()
            .that().resideInAPackage("dev.runboard.session..")
            .should().dependOnClassesThat().resideInAPackage("com.fasterxml..")
            .because("the domain has no Jackson: JSON names and formats live in store (store.Json, store.SessionMixIns)");

    /** Where runboard makes a Jackson mapper: each must hold the session names, or session values print otherwise there. */
    private static final java.util.Set<String> MAPPERS = java.util.Set.of("com.fasterxml.jackson.databind.ObjectMapper",
            "com.fasterxml.jackson.databind.json.JsonMapper", "com.fasterxml.jackson.dataformat.yaml.YAMLMapper");

    @ArchTest
    static final ArchRule everyMapperHasTheSessionNames = com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes()
            .should(new com.tngtech.archunit.lang.ArchCondition<com.tngtech.archunit.core.domain.JavaClass>(
                    "give every Jackson mapper it makes the session names (store.Json.sessionNames)") {
                @Override
                public void check(com.tngtech.archunit.core.domain.JavaClass c, com.tngtech.archunit.lang.ConditionEvents events) {
                    boolean makesOne = c.getCodeUnitCallsFromSelf().stream().anyMatch(call ->
                            MAPPERS.contains(call.getTargetOwner().getFullName())
                                    && (call.getName().equals("builder") || call.getName().equals("<init>")));
                    boolean names = c.getMethodCallsFromSelf().stream().anyMatch(call ->
                            call.getTargetOwner().isEquivalentTo(dev.runboard.store.Json.class)
                                    && call.getName().equals("sessionNames"));
                    if (makesOne && !names) {
                        events.add(com.tngtech.archunit.lang.SimpleConditionEvent.violated(c,
                                c.getName() + " makes a Jackson mapper without store.Json.sessionNames"));
                    }
                }
            })
            .because("the session package's JSON names live in store's mix-ins: one factory puts them on every mapper");

    @ArchTest
    static final ArchRule uiPackagesFormNoCycle = com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices()
            .matching("dev.runboard.ui.(*)..").should().beFreeOfCycles()
            .because("issue #15: shared widgets (ui.common, ui.ansi) at the bottom, views above them, the window's"
                    + " composition (ui.window, then ui itself) on top");

    @ArchTest
    static final ArchRule theCompositionRootIsOnTop = noClasses()
            .that().resideInAPackage("dev.runboard.ui..").and().resideOutsideOfPackage("dev.runboard.ui")
            .should().dependOnClassesThat().resideInAPackage("dev.runboard.ui")
            .because("dev.runboard.ui holds the app and its composition root (RunboardApp, MainWindow): nothing below"
                    + " may reach back up to it; what the views share lives in ui.common");
}
