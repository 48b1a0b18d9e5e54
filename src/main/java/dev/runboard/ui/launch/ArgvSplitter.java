package dev.runboard.ui.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a "no shell" command line into argv the way a POSIX shell splits words: whitespace
 * separates, single quotes keep everything literal, double quotes keep spaces and honour
 * backslash before {@code " \ $ `}, a backslash outside quotes escapes the next character.
 * No expansion of any kind happens: that is what "no shell" means.
 */
public final class ArgvSplitter {
    private ArgvSplitter() {
    }

    public static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (c == '\'') {
                int close = line.indexOf('\'', i + 1);
                if (close < 0) {
                    throw new IllegalArgumentException("unclosed single quote");
                }
                word.append(line, i + 1, close);
                inWord = true;
                i = close + 1;
            } else if (c == '"') {
                i = doubleQuoted(line, i + 1, word);
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 < n) {
                    word.append(line.charAt(i + 1));
                }
                inWord = true;
                i += 2;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                i++;
            } else {
                word.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** Appends a double-quoted part starting after its quote; returns the index after the closing quote. */
    private static int doubleQuoted(String line, int i, StringBuilder word) {
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\' && i + 1 < line.length() && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
                word.append(line.charAt(i + 1));
                i += 2;
            } else {
                word.append(c);
                i++;
            }
        }
        throw new IllegalArgumentException("unclosed double quote");
    }
}
