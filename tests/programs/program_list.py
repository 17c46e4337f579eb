"""The programs a test is given on its command line, as NAME=PATH (tests/programs/CMakeLists.txt).

NAME is the program's name, or the program's name and one of its subcommands ("nwpio-bench
model-loop"); the command runs PATH with the subcommand's word first.
"""
import subprocess


def parse(arguments):
    """[(name, command)] from ["NAME=PATH", ...]; command is the list to run before the options."""
    programs = []
    for argument in arguments:
        name, _, path = argument.partition("=")
        if not path:
            raise SystemExit(f"FAIL: '{argument}' is not NAME=PATH")
        programs.append((name, [path] + name.split()[1:]))
    return programs


def run(command, *options):
    """(exit code, stdout, stderr) of command + options; 60 s at most (a hang is a failure)."""
    try:
        done = subprocess.run(command + list(options), capture_output=True, text=True, timeout=60, check=False)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after 60 s"
    return done.returncode, done.stdout, done.stderr
