package dev.runboard.workspace;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The load error of an {@code env_file} (issue #45): one that is missing or does not read, found when
 * the workspace file is read rather than when a command starts, and placed at the key that names it.
 */
final class EnvFileCheck {
    private EnvFileCheck() {
    }

    /** The first unusable env file of {@code content} (paths relative to {@code file}'s folder), or null. */
    static DependencyCheck.Problem find(WorkspaceFile content, Path file) {
        Path folder = file.toAbsolutePath().normalize().getParent();
        DependencyCheck.Problem problem = check(content.envFiles(), folder, "/env_file");
        for (Map.Entry<String, WorkspaceCommand> c : content.commands().entrySet()) {
            if (problem != null) {
                return problem;
            }
            problem = check(c.getValue().envFiles(), folder,
                    "/commands/" + c.getKey().replace("~", "~0").replace("/", "~1") + "/env_file");
        }
        return problem;
    }

    private static DependencyCheck.Problem check(List<String> files, Path folder, String pointer) {
        for (String f : files) {
            try {
                EnvFile.read(folder.resolve(f).normalize());
            } catch (EnvFile.Unusable e) {
                return new DependencyCheck.Problem("env_file " + f + ": " + e.getMessage(), pointer);
            }
        }
        return null;
    }
}
