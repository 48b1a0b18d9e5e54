import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The least any JVM front end to {@code exec} must do, for bench/exec-end-to-end.sh's "floor" row: start a
 * JVM, launch the command with its output redirected to a file by the kernel (as runboard does), wait for
 * it, write and fsync a one-line record of its end, print that, exit. No options' check, no data dir's
 * check, no preview, no lock, and unless {@code -Dfloor.wrap=SCRIPT} names runboard's wrapper script no wrapper (so no
 * process group to kill and no orphan reaped): what is left of exec's cost here is the JVM's and the
 * launch's (and the wrapper's), which no Java code can take away. With {@code -Dfloor.early=PID} the
 * launch is not this JVM's: a script started the wrapper (output redirected, as here) before it exec'd
 * into this JVM, which only waits for that child and reads its exit status from the wrapper's file: the
 * cost of a front end that overlaps the JVM's start with the command ("floor-early").
 *
 * Called as runboard is: {@code ExecFloor exec [--shell SHELL] --data-dir DIR -- COMMAND...}.
 */
public final class ExecFloor {
    public static void main(String[] args) throws Exception {
        String shell = "/bin/sh";
        Path dir = null;
        String wrapper = System.getProperty("floor.wrap"); // runboard's wrapper script, to launch through it
        int i = 1; // args[0] is "exec"
        for (; !args[i].equals("--"); i += 2) {
            if (args[i].equals("--shell")) {
                shell = args[i + 1];
            } else if (args[i].equals("--data-dir")) {
                dir = Path.of(args[i + 1]);
            }
        }
        String command = String.join(" ", java.util.Arrays.copyOfRange(args, i + 1, args.length));
        Files.createDirectories(dir);
        Path output = dir.resolve("output.log");
        java.util.List<String> argv = new java.util.ArrayList<>();
        if (wrapper != null) { // runboard's own wrapper, as runboard runs it: no deadline, a 2 s grace
            argv.addAll(java.util.List.of("perl", wrapper, dir.resolve("exit-status").toString(), "0", "2000"));
        }
        argv.addAll(java.util.List.of(shell, "-c", command));
        String early = System.getProperty("floor.early"); // the pid of the wrapper a script launched before this JVM
        int code;
        if (early == null) {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.INHERIT).start();
            code = p.waitFor();
        } else { // our child (the script exec'd into this JVM), so waitid sees its end at once; its status is the wrapper's
            ProcessHandle.of(Long.parseLong(early)).ifPresent(h -> h.onExit().join());
            String status = Files.readString(dir.resolve("exit-status")); // "exit N at EPOCH_MS"
            code = status.startsWith("exit ") ? Integer.parseInt(status.split(" ")[1]) : 125;
        }
        String record = "{\n  \"status\" : \"" + (code == 0 ? "completed" : "failed") + "\",\n  \"artifact\" : \""
                + output + "\",\n  \"exit_code\" : " + code + "\n}\n";
        try (FileChannel ch = FileChannel.open(dir.resolve("session.json"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(StandardCharsets.UTF_8.encode(record));
            ch.force(true);
        }
        System.out.print(record);
        System.exit(code);
    }
}
