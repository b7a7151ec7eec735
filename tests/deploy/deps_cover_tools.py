#!/usr/bin/env python3
"""Every command the test scripts run is in Debian's base system or installed by scripts/deps.sh.

A fresh Debian 12 machine has only the base system (debootstrap's minbase) before scripts/test.sh
runs scripts/deps.sh. A test script calling a tool that neither provides passes on a machine where
someone installed it by hand and fails for a newcomer (curl did, once). This reads the shell scripts
the tests and scripts/test.sh run, finds each command word (the first word of a simple command),
and looks it up: a shell builtin or keyword, a function the scripts define, a program of the base
system, or a program whose Debian package deps.sh lists. Anything else fails, naming the file and
line. A new tool gets a row in TOOL_PACKAGES below, and its package a line in scripts/deps.sh.

  deps_cover_tools.py REPO_ROOT
"""
import pathlib
import re
import shlex
import sys

# Programs in every Debian 12 root debootstrap's minbase makes (priority required, plus apt, git,
# sudo and ca-certificates, which fresh-debian.sh adds and every Debian install has).
BASE = set("""
awk basename bash cat chmod chown cp cut date dd df diff dirname du env expr false find fold
getent grep gunzip gzip head hostname id install join kill ln ls mkdir mkfifo mknod mktemp mv
nice nl nohup nproc od paste printf pwd readlink realpath rm rmdir sed seq setsid sh shuf sleep
sort split stat stdbuf tac tail tee test timeout touch tr true truncate tsort tty uname uniq wc
xargs yes zcat cmp sha256sum md5sum base64 tar flock logger more mount umount script whoami
dpkg dpkg-query apt-get apt-cache git sudo perl mawk dash chroot sync which tempfile
""".split())

# Programs from other packages: command -> Debian package. deps.sh must list the package.
TOOL_PACKAGES = {
    "curl": "curl",
    "python3": "python3",
    "cmake": "cmake",
    "ctest": "cmake",
    "make": "build-essential",
    "g++": "build-essential",
    "cc": "build-essential",
    "readelf": "build-essential",  # binutils, which build-essential pulls in
    "ldd": "build-essential",      # libc-bin is base; listed for clarity
    "ccache": "ccache",
    "pkg-config": "pkg-config",
    "protoc": "protobuf-compiler",
    "promtool": "prometheus",
    "prometheus": "prometheus",
    "xvfb-run": "xvfb",
    "Xvfb": "xvfb",
    "xauth": "xauth",
    "ps": "procps",
    "pkill": "procps",
    "pgrep": "procps",
}

SHELL_WORDS = set("""
if then else elif fi for while until do done case esac in function select time ! { } [[ ]]
[ . : source alias bg break builtin caller cd command compgen complete continue declare
dirs disown echo enable eval exec exit export fc fg getopts hash help history jobs let local
logout mapfile popd printf pushd read readarray readonly return set shift shopt suspend test
times trap type typeset ulimit umask unalias unset wait kill true false
""".split())

# Words that run the next word as a command.
PREFIXES = {"timeout", "nice", "nohup", "env", "exec", "command", "sudo", "stdbuf", "setsid", "time", "!", "xargs"}


def deps_packages(root: pathlib.Path) -> set:
    text = (root / "scripts/deps.sh").read_text()
    m = re.search(r"^packages=\((.*?)^\)", text, re.S | re.M)
    if not m:
        sys.exit("scripts/deps.sh: no packages=( ... ) list")
    words = set()
    for line in m.group(1).splitlines():
        words.update(line.split("#", 1)[0].split())
    return words


def logical_lines(text: str):
    """Yields (line number, code) with comments, here-document bodies and quoted text taken out
    (a quoted string may span lines; $( ... ) inside double quotes is kept, as it runs commands)."""
    out, start, line, i, heredoc = [], 1, 1, 0, None
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            yield start, "".join(out)
            out, line = [], line + 1
            start = line
            i += 1
            if heredoc:
                while i < n:
                    j = text.find("\n", i)
                    j = n if j < 0 else j
                    body, i, line = text[i:j], j + 1, line + 1
                    if body.strip() == heredoc:
                        break
                start, heredoc = line, None
            continue
        if c == "\\" and i + 1 < n:
            line += text[i + 1] == "\n"
            out.append(" " if text[i + 1] == "\n" else text[i:i + 2])
            i += 2
        elif text.startswith("<<", i) and not text.startswith("<<<", i):
            m = re.match(r"<<-?\s*(['\"]?)([A-Za-z_]+)\1", text[i:])
            if m:
                heredoc = m.group(2)
                i += m.end()
            else:
                i += 2
            out.append(" ")
        elif c == "#" and (not out or out[-1] in " \t;(|&"):
            while i < n and text[i] != "\n":
                i += 1
        elif c == "'":
            j = text.find("'", i + 1)
            j = n if j < 0 else j
            line += text.count("\n", i, j)
            out.append("''")
            i = j + 1
        elif c == '"':
            i += 1
            out.append('""')
            while i < n and text[i] != '"':
                if text[i] == "\\":
                    i += 2
                    continue
                if text.startswith("$(", i):
                    depth, j = 1, i + 2
                    while j < n and depth:
                        depth += {"(": 1, ")": -1}.get(text[j], 0)
                        j += 1
                    out.append(" " + text[i:j].replace("\n", " ") + " ")
                    line += text.count("\n", i, j)
                    i = j
                    continue
                line += text[i] == "\n"
                i += 1
            i += 1
        else:
            out.append(c)
            i += 1
    if out:
        yield start, "".join(out)


def substitutions(line: str):
    """`line` with each $( ... ) taken out, and the text of each (they run commands, even in quotes)."""
    out, subs, i = [], [], 0
    while i < len(line):
        if line.startswith("$((", i):  # arithmetic, not a command
            j = line.find("))", i)
            out.append(" $_ ")
            i = len(line) if j < 0 else j + 2
        elif line.startswith("$(", i):
            depth, j = 1, i + 2
            while j < len(line) and depth:
                depth += {"(": 1, ")": -1}.get(line[j], 0)
                j += 1
            inner = line[i + 2:j - 1]
            rest, more = substitutions(inner)
            subs.append(rest)
            subs.extend(more)
            out.append(" $_ ")
            i = j
        else:
            out.append(line[i])
            i += 1
    return "".join(out), subs


def command_words(line: str):
    """The first word of each simple command on a line (a good guess, not a shell parser)."""
    outer, subs = substitutions(line)
    for text in [outer] + subs:
        for piece in re.split(r"\|\||&&|[|;&`()]|\bthen\b|\bdo\b|\belse\b|\{|\}", text):
            yield from first_word(piece)


def first_word(piece: str):
    try:
        words = shlex.split(piece, posix=True)
    except ValueError:
        words = piece.split()
    i = 0
    while i < len(words):
        w = words[i]
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=.*", w) or w in ("if", "while", "until", "!", "elif"):
            i += 1
            continue
        if w in PREFIXES:
            i += 1
            # timeout's duration, env's assignments, a command's options
            while i < len(words) and (words[i].startswith("-") or re.fullmatch(r"[0-9.]+[smhd]?", words[i])
                                      or "=" in words[i]):
                i += 1
            continue
        if w.startswith(("<", ">")) or re.fullmatch(r"[0-9]*[<>]&?[0-9-]*", w):
            i += 2 if re.fullmatch(r"[0-9]*[<>]{1,2}", w) else 1
            continue
        yield w
        return


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    scripts = sorted(root.glob("tests/**/*.sh")) + [root / "scripts/test.sh", root / "scripts/build.sh",
                                                    root / ".ci/run"]
    listed = deps_packages(root)
    functions = set()
    for path in scripts:
        functions.update(re.findall(r"^\s*(?:function\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*\(\)", path.read_text(), re.M))

    problems, seen = [], {}
    for path in scripts:
        in_case = 0
        for n, line in logical_lines(path.read_text()):
            # A case arm's pattern ("FROM)", "a | b)") is not a command.
            opens = len(re.findall(r"\bcase\b.*?\bin\b", line))
            if in_case and not opens:
                line = re.sub(r"^\s*\(?[^()]*\)", " ", line)
            if in_case or opens:
                line = re.sub(r"\bin\s+[^()]*\)", "in;", line)
                line = re.sub(r";;\s*[^()]*\)", ";;", line)
            in_case += opens - len(re.findall(r"\besac\b", line))
            for word in command_words(line):
                if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_.+-]*", word):
                    continue  # a variable, a path, a quoted string: not a tool looked up on PATH
                if word in SHELL_WORDS or word in functions or word in BASE:
                    continue
                where = f"{path.relative_to(root)}:{n}"
                pkg = TOOL_PACKAGES.get(word)
                if pkg is None:
                    problems.append(f"{where}: runs '{word}', which is not a base-system program; add it to "
                                    f"TOOL_PACKAGES in {pathlib.Path(__file__).name} with its Debian package")
                elif pkg not in listed:
                    problems.append(f"{where}: runs '{word}' (package {pkg}), which scripts/deps.sh does not install")
                else:
                    seen.setdefault(word, pkg)
    for p in problems:
        print("FAIL", p)
    print(f"{len(seen)} tools outside the base system, each installed by scripts/deps.sh: "
          + ", ".join(f"{w} ({p})" for w, p in sorted(seen.items())))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
