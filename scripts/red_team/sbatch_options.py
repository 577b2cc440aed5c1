#!/usr/bin/env python3
"""Prints the options sbatch reads from a batch script's #SBATCH lines, one per line: each line's rest
split as Slurm's get_argument() (src/sbatch/opt.c) splits it -- on whitespace, quotes grouping, a
backslash escaping the next character, an unquoted '#' ending the line -- up to the first command.
Exit status 2 where sbatch would stop with an error (an unmatched quote, a leading ':').
Usage: sbatch_options.py SCRIPT"""
import sys


def arguments(rest):
    out, i, n = [], 0, len(rest)
    while True:
        while i < n and rest[i].isspace():
            i += 1
        if i >= n:
            return out
        if rest[i] == ':':
            sys.exit(2)
        arg, quote, escape, got = '', None, False, False
        while i < n and (quote or not rest[i].isspace()):
            c = rest[i]
            if escape:
                escape = False
            elif c == '\\':
                i += 1
                if i < n and rest[i] == ' ':
                    arg, i, got = arg + ' ', i + 1, True
                else:
                    escape = True
                continue
            elif quote:
                if c == quote:
                    quote, i = None, i + 1
                    continue
            elif c in '"\'':
                quote, i = c, i + 1
                continue
            elif c == '#':
                i = n
                break
            arg, i, got = arg + c, i + 1, True
        if quote:
            sys.exit(2)
        if got:
            out.append(arg)


with open(sys.argv[1], encoding='utf-8', errors='surrogateescape') as script:
    for line in script.read().split('\n'):
        if line.startswith('#SBATCH'):
            for option in arguments(line[7:]):
                print(option)
        elif line.strip() and not line.strip().startswith('#'):
            break
