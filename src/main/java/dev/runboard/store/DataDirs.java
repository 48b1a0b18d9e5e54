package dev.runboard.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where runboard keeps its data: a flag, else {@code $RUNBOARD_HOME}, else {@code $XDG_DATA_HOME/runboard}, else {@code ~/.local/share/runboard}.
 *
 * <p>Everything runboard creates there is private whatever the umask: folders 0700, files 0600
 * (output can hold secrets). {@link #check} is the one place that says whether a data dir can be
 * used at all, before any command starts anything in it.
 */
public final class DataDirs {
    /** Folders under the data dir that are runboard's, whole. */
    private static final List<String> OWN_FOLDERS = List.of("sessions", "artifacts", "corrupt", "bin");
    /** What at the top of the data dir is runboard's ({@code manager.log}: written by runboard 0.1). */
    private static final List<String> OWN = List.of("sessions", "artifacts", "corrupt", "bin", "settings.json",
            "supervisor.lock", "supervisor.log", "supervisor.sock", "window.sock", "recent-workspaces.json", "manager.log",
            "ui-state.json");
    /** The rest of what runboard writes at the top of a data dir (for {@link #refuseForeign}). */
    private static final List<String> ALSO_OWN = List.of("ssh", "settings.schema.json", "list.index", "rows.index");
    /** Left by {@link #check} once it has made everything of runboard's in the data dir private. */
    static final String PRIVATE_MARK = ".private";
    /** What must be writable as it is: the folders sessions are created in, the supervisor's lock and the log it appends to. */
    private static final Map<String, String> WRITTEN_IN_PLACE = Map.of("sessions", "the folder", "artifacts", "the folder",
            "bin", "the folder", "supervisor.lock", "the supervisor's lock", "supervisor.log", "the supervisor's log");
    private static final String OR_ELSE = ", or choose another data dir with --data-dir or RUNBOARD_HOME";
    private static final int TYPE_MASK = 0170000;
    private static final int DIRECTORY = 0040000;
    private static final int REGULAR = 0100000;
    private static final int GROUP_AND_OTHERS = 0077;

    private DataDirs() {
    }

    public static Path resolve(Path fromFlag) {
        return resolve(fromFlag, System.getenv());
    }

    /** The data dir for a client with this environment ({@code --data-dir} given as an absolute path, or null). */
    public static Path resolve(Path fromFlag, Map<String, String> env) {
        return resolve(fromFlag, env, Path.of(System.getProperty("user.home")));
    }

    static Path resolve(Path fromFlag, Map<String, String> env, Path home) {
        if (fromFlag != null) {
            // An empty --data-dir (a script's unset variable) stays empty, for check to refuse: made absolute
            // it would be the current folder, which runboard would then fill and make private.
            return fromFlag.toString().isEmpty() ? fromFlag : fromFlag.toAbsolutePath().normalize();
        }
        String runboardHome = env.get("RUNBOARD_HOME");
        if (runboardHome != null && !runboardHome.isBlank()) {
            return Path.of(runboardHome).toAbsolutePath().normalize();
        }
        return xdgBase(env, "XDG_DATA_HOME").orElse(home.resolve(".local/share")).resolve("runboard");
    }

    /**
     * The folder an XDG base-directory variable names ({@code XDG_DATA_HOME}, {@code XDG_CACHE_HOME}), or
     * empty when it is unset or relative: the spec says a relative value is invalid and must be ignored.
     */
    public static Optional<Path> xdgBase(Map<String, String> env, String variable) {
        String value = env.get(variable);
        return value != null && value.startsWith("/") ? Optional.of(Path.of(value)) : Optional.empty();
    }

    /**
     * Whether a folder is this user's alone: a directory (not a symbolic link) owned by them that
     * nobody else can write. What runboard keeps or finds in one (a socket, a cache) is then its own;
     * in any other (what {@code sudo -E} keeps: the invoking user's) it is not used.
     */
    public static boolean ownedAndPrivate(Path dir) {
        try {
            java.nio.file.attribute.PosixFileAttributes a = Files.readAttributes(dir,
                    java.nio.file.attribute.PosixFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            java.util.Set<java.nio.file.attribute.PosixFilePermission> p = a.permissions();
            return a.isDirectory() && a.owner().getName().equals(System.getProperty("user.name"))
                    && !p.contains(java.nio.file.attribute.PosixFilePermission.GROUP_WRITE)
                    && !p.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Creates a directory (and parents) readable by its owner only: output can hold secrets. */
    public static Path createPrivateDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return dir;
        }
        if (posix(dir)) {
            return Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        return Files.createDirectories(dir);
    }

    /** Creates a new, empty file readable by its owner only (0600, or less under a strict umask); fails if it exists. */
    public static Path createPrivateFile(Path file) throws IOException {
        return Files.createFile(file, privateFile(file));
    }

    /** Creates the file as {@link #createPrivateFile} unless it is there already (whose mode {@link #check} sees to). */
    public static Path ensurePrivateFile(Path file) throws IOException {
        try {
            return createPrivateFile(file);
        } catch (FileAlreadyExistsException there) {
            return file;
        }
    }

    /** Makes an existing file readable by its owner only (0600), as {@link #createPrivateFile} creates one. */
    public static void makePrivate(Path file) throws IOException {
        if (posix(file)) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
    }

    /** Opens a file for writing, creating it readable by its owner only when it is missing. */
    public static FileChannel openPrivate(Path file) throws IOException {
        Set<OpenOption> options = Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        return FileChannel.open(file, options, privateFile(file));
    }

    private static FileAttribute<?>[] privateFile(Path file) {
        return posix(file) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
    }

    private static boolean posix(Path p) {
        return p.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /**
     * A folder runboard never marked that holds files and none of runboard's (a project, the home
     * folder: {@code --data-dir .}) is refused: adopting it would fill it with runboard's files and make
     * it private to its owner. An empty or new folder, or one an older runboard used, is fine.
     */
    private static void refuseForeign(Path dir) throws DataDirException {
        try (java.nio.file.DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            String other = null;
            for (Path e : entries) {
                String name = e.getFileName().toString();
                if (OWN.contains(name) || ALSO_OWN.contains(name)) {
                    return;
                }
                // Hidden names are passed over: runboard's temp files are (".settings.json.tmp", seen by a
                // second client while the first makes the data dir), and a folder of someone else's also
                // shows files that are not hidden.
                if (!name.startsWith(".")) {
                    other = other == null ? name : other;
                }
            }
            if (other != null) {
                throw new DataDirException("the data dir " + dir + " already holds files that are not runboard's (such as "
                        + other + "): give runboard a folder of its own, e.g. " + dir.resolve(".runboard") + OR_ELSE);
            }
        } catch (DataDirException e) {
            throw e;
        } catch (IOException e) {
            throw new DataDirException("cannot read the data dir " + dir + ": " + why(e) + OR_ELSE);
        }
    }

    /**
     * Makes sure the data dir can be used, creating it (0700) when it does not exist: it must be a
     * folder (a link to one is fine), be this user's, be writable, and so must what runboard writes
     * in place there (the supervisor's log and lock, the folders sessions go into). Folders and files
     * of runboard's there that others can read (made by an older runboard, or by hand) are made
     * private; the returned warning says so, once. Symbolic links inside are never followed.
     *
     * <p>Cheap enough for every command: a dozen stat calls. Everything under runboard's folders is
     * gone through only while {@link #PRIVATE_MARK} is missing (a data dir this runboard has not
     * gone through yet) or something at the top is loose again.
     *
     * @throws DataDirException one line naming the problem and what to do, when the data dir cannot be used
     */
    public static Optional<String> check(Path dir) throws DataDirException {
        if (dir.toString().isEmpty()) {
            throw new DataDirException("--data-dir is empty (an unset variable?): leave it out for the default"
                    + " ($XDG_DATA_HOME/runboard, else ~/.local/share/runboard)" + OR_ELSE);
        }
        if (!posix(dir)) {
            return Optional.empty(); // no owners or modes to check (not a POSIX system)
        }
        Map<String, Object> top;
        try {
            top = Files.readAttributes(dir, "unix:mode,uid");
        } catch (NoSuchFileException e) {
            if (Files.isSymbolicLink(dir)) {
                throw new DataDirException("the data dir " + dir + " is a symbolic link to " + linkTarget(dir)
                        + ", which does not exist: create that folder or remove the link" + OR_ELSE);
            }
            try {
                createPrivateDirectories(dir);
            } catch (IOException c) {
                throw new DataDirException("cannot create the data dir " + dir + ": " + why(c) + OR_ELSE);
            }
            markPrivate(dir);
            return Optional.empty();
        } catch (IOException e) {
            throw new DataDirException("cannot read the data dir " + dir + ": " + why(e) + OR_ELSE);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty(); // no "unix" attribute view here: nothing to check
        }
        int mode = (Integer) top.get("mode");
        if ((mode & TYPE_MASK) != DIRECTORY) {
            throw new DataDirException("the data dir " + dir + " is " + ((mode & TYPE_MASK) == REGULAR ? "a file" : "not a folder")
                    + ": move it away" + OR_ELSE);
        }
        int me = myUid();
        int owner = (Integer) top.get("uid");
        if (me >= 0 && owner != me) {
            // Even for root: what it created there would be root's (a log, a lock the owner could no
            // longer write), and the owner's supervisor refuses clients of another user.
            throw new DataDirException("the data dir " + dir + " belongs to user " + userName(dir, owner) + ", not to you ("
                    + System.getProperty("user.name") + "): run runboard as that user" + OR_ELSE);
        }
        requireWritable("the data dir " + dir, dir, me);
        boolean marked = Files.exists(dir.resolve(PRIVATE_MARK), LinkOption.NOFOLLOW_LINKS);
        if (!marked) {
            refuseForeign(dir);
        }
        Loose loose = new Loose();
        loose.add(dir, mode & 0777);
        for (String name : OWN) {
            Path p = dir.resolve(name);
            PosixFileAttributes a = attributesOrNull(p);
            if (a == null || a.isSymbolicLink()) {
                continue;
            }
            if (WRITTEN_IN_PLACE.containsKey(name) && OWN_FOLDERS.contains(name) != a.isDirectory()) {
                // runboard would fail on it later, less clearly (an empty list, "cannot run setsid"); the
                // others (settings, sockets, window state) are read with a fallback and a warning of their own
                throw new DataDirException(p + " is " + (a.isDirectory() ? "a folder" : "a file") + " where runboard keeps"
                        + (OWN_FOLDERS.contains(name) ? " a folder" : " a file") + ": move it away" + OR_ELSE);
            }
            String what = WRITTEN_IN_PLACE.get(name);
            if (what != null) {
                requireWritable(what + " " + p, p, me);
            }
            loose.add(p, bits(a.permissions()));
        }
        if (marked && loose.paths.isEmpty()) {
            return Optional.empty();
        }
        for (String name : OWN_FOLDERS) {
            loose.addInside(dir.resolve(name));
        }
        Optional<String> warning = loose.tighten(dir);
        markPrivate(dir);
        return warning;
    }

    /** Folders and files of runboard's that group or others have bits on, and those bits. */
    private static final class Loose {
        final List<Path> paths = new ArrayList<>();
        final List<Integer> modes = new ArrayList<>();

        void add(Path p, int mode) {
            if ((mode & GROUP_AND_OTHERS) != 0) {
                paths.add(p);
                modes.add(mode);
            }
        }

        /** Everything in the folder, at any depth; symbolic links are left alone, never followed. */
        void addInside(Path folder) throws DataDirException {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
                for (Path entry : entries) {
                    PosixFileAttributes a = attributesOrNull(entry);
                    if (a == null || a.isSymbolicLink()) {
                        continue;
                    }
                    add(entry, bits(a.permissions()));
                    if (a.isDirectory()) {
                        addInside(entry);
                    }
                }
            } catch (NoSuchFileException | java.nio.file.NotDirectoryException gone) {
                // not there (or not a folder): nothing of runboard's inside
            } catch (IOException | java.nio.file.DirectoryIteratorException e) {
                throw new DataDirException("cannot read " + folder + ": " + (e instanceof IOException io ? why(io) : e.getMessage())
                        + "; make it readable and writable by you" + OR_ELSE);
            }
        }

        /** Takes the group's and others' bits away (the owner's stay as they are), or says why it cannot. */
        Optional<String> tighten(Path dir) throws DataDirException {
            if (paths.isEmpty()) {
                return Optional.empty();
            }
            for (int i = 0; i < paths.size(); i++) {
                try {
                    Files.setPosixFilePermissions(paths.get(i), permissions(modes.get(i) & 0700));
                } catch (IOException e) {
                    throw new DataDirException(paths.get(i) + " can be read by other users (" + permissionText(modes.get(i))
                            + ") and cannot be made private: " + why(e) + "; fix it with chmod go-rwx" + OR_ELSE);
                }
            }
            int n = paths.size();
            return Optional.of("made " + n + (n == 1 ? " file or folder" : " files and folders") + " in " + dir
                    + " private: other users could read them (" + paths.get(0) + " was " + permissionText(modes.get(0)) + ")");
        }
    }

    /** Leaves the mark that this data dir has been gone through; without it, the next check goes through it again. */
    private static void markPrivate(Path dir) {
        try {
            Path mark = dir.resolve(PRIVATE_MARK);
            if (!Files.exists(mark, LinkOption.NOFOLLOW_LINKS)) {
                AtomicFiles.SYSTEM.write(mark, ("runboard made every folder of its data dir 0700 and every file 0600;"
                        + " delete this file to have it look again\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            // the next check goes through the data dir again: slower, never wrong
        }
    }

    private static void requireWritable(String what, Path p, int me) throws DataDirException {
        if (Files.isWritable(p)) {
            return;
        }
        Map<String, Object> a;
        try {
            a = Files.readAttributes(p, "unix:mode,uid");
        } catch (IOException | RuntimeException e) {
            throw new DataDirException(what + " cannot be written: " + (e instanceof IOException io ? why(io) : e.toString()) + OR_ELSE);
        }
        int mode = (Integer) a.get("mode");
        int owner = (Integer) a.get("uid");
        boolean folder = (mode & TYPE_MASK) == DIRECTORY;
        String problem;
        if (readOnlyFileSystem(p)) {
            problem = what + " is on a read-only file system: remount it read-write";
        } else if (me >= 0 && owner != me) {
            problem = what + " belongs to user " + userName(p, owner) + " (" + permissionText(mode) + "): "
                    + (folder ? "give it back to you (chown -R)" : "remove it (runboard makes a new one) or give it back to you (chown)");
        } else if ((mode & 0200) == 0 && me != 0) {
            problem = what + " is not writable (" + permissionText(mode) + "): chmod u+w " + p;
        } else {
            problem = what + " cannot be written though its mode allows it (" + permissionText(mode)
                    + "): it is probably immutable (see lsattr" + (folder ? " -d" : "") + "; chattr -i undoes it)";
        }
        throw new DataDirException(problem + OR_ELSE);
    }

    private static PosixFileAttributes attributesOrNull(Path p) throws DataDirException {
        try {
            return Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException gone) {
            return null;
        } catch (IOException e) {
            throw new DataDirException("cannot read " + p + ": " + why(e) + OR_ELSE);
        }
    }

    private static boolean readOnlyFileSystem(Path p) {
        try {
            return Files.getFileStore(p).isReadOnly();
        } catch (IOException e) {
            return false;
        }
    }

    /** This process's effective user id, or -1 when it cannot be known (no /proc). */
    private static int myUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static String userName(Path p, int uid) {
        try {
            return Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName();
        } catch (IOException | RuntimeException e) {
            return String.valueOf(uid);
        }
    }

    private static String linkTarget(Path link) {
        try {
            Path target = Files.readSymbolicLink(link);
            return link.resolveSibling(target).normalize().toString();
        } catch (IOException e) {
            return "a path";
        }
    }

    private static Set<PosixFilePermission> permissions(int bits) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_READ};
        for (int i = 0; i < order.length; i++) {
            if ((bits & (1 << i)) != 0) {
                set.add(order[i]);
            }
        }
        return set;
    }

    private static int bits(Set<PosixFilePermission> permissions) {
        int bits = 0;
        for (PosixFilePermission p : permissions) {
            bits |= 1 << (8 - p.ordinal()); // OWNER_READ is 0400 ... OTHERS_EXECUTE 0001
        }
        return bits;
    }

    private static String permissionText(int mode) {
        return "mode " + PosixFilePermissions.toString(permissions(mode & 0777));
    }

    /** The OS's reason, as short as it says it ("Read-only file system", "Not a directory"). */
    static String why(IOException e) {
        if (e instanceof FileAlreadyExistsException f) {
            return f.getFile() + " is in the way (a file, or a link to nothing)";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason() + (f.getFile() != null ? " (" + f.getFile() + ")" : "");
        }
        if (e instanceof NoSuchFileException f) {
            return f.getFile() + " does not exist";
        }
        if (e instanceof AccessDeniedException f) {
            return "permission denied (" + f.getFile() + ")";
        }
        return String.valueOf(e.getMessage());
    }
}
