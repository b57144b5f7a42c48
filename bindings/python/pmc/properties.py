"""Properties files (PRISM's .props/.pctl layout) read by libpmc.

    props = pmc.Properties.read("consensus.props", constants="K=2")
    for name, text in props:            # name is "" for an unnamed property
        print(name or text, model.check(text).value)

The library reads the file (pmc_properties_read) exactly as ``pmc check
--property-file`` does: comments, ``const``, ``formula`` and ``label``
declarations put into the properties that use them, ``"name": P=? [...]`` names. The properties are copied into Python at once,
so a Properties object holds no C handle and needs no closing; it is
immutable and may be shared between threads.
"""

import ctypes

from .errors import Error, check, lib
from .model import constants_arg, fs_path


def _text(text):
    """A property's text, or the error that stands for it."""
    if isinstance(text, Error):
        raise text
    return text


class Properties:
    """The properties of one file, in file order: iterating gives
    ``(name, text)`` pairs, ``text`` ready for Model.check."""

    __slots__ = ("_entries",)

    def __init__(self, entries):
        self._entries = tuple(entries)  # (name, text, line)

    @classmethod
    def read(cls, path, constants=None):
        """Reads the properties file at ``path`` (str or os.PathLike).
        ``constants`` ("N=3,K=2" or a dict) gives the values of constants the
        file declares without one. Raises pmc.FileError when it cannot be read,
        pmc.ParseError (message "FILE:LINE: ...") when it is malformed.
        A JANI model (.jani) gives its own properties in PRISM syntax; one
        pmc cannot translate raises its error (pmc.UnsupportedError or
        pmc.ParseError, naming the property) only where its text is asked
        for (iterating or indexing)."""
        native = lib()
        handle = ctypes.c_void_p()
        check(native.pmc_properties_read(fs_path(path), constants_arg(constants), ctypes.byref(handle)))
        return cls._take(native, handle)

    @classmethod
    def parse(cls, text, source_name=None, constants=None):
        """Reads ``text`` as the contents of a properties file;
        ``source_name`` names it in messages (default "<text>")."""
        native = lib()
        handle = ctypes.c_void_p()
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, not {type(text).__name__}")
        name = None if source_name is None else str(source_name).encode("utf-8")
        check(native.pmc_properties_parse(text.encode("utf-8"), name, constants_arg(constants), ctypes.byref(handle)))
        return cls._take(native, handle)

    @classmethod
    def _take(cls, native, handle):
        try:
            count = ctypes.c_uint64()
            check(native.pmc_properties_count(handle, ctypes.byref(count)))
            entries = []
            for index in range(count.value):
                name, text, line = ctypes.c_char_p(), ctypes.c_char_p(), ctypes.c_uint64()
                check(native.pmc_properties_name(handle, index, ctypes.byref(name)))
                check(native.pmc_properties_line(handle, index, ctypes.byref(line)))
                try:
                    check(native.pmc_properties_text(handle, index, ctypes.byref(text)))
                    text = text.value.decode("utf-8")
                except Error as error:  # a JANI property pmc cannot translate: raised where it is used
                    text = error
                entries.append((name.value.decode("utf-8"), text, line.value))
            return cls(entries)
        finally:
            native.pmc_properties_free(handle)

    def __iter__(self):
        return ((name, _text(text)) for name, text, _ in self._entries)

    def __len__(self):
        return len(self._entries)

    def __getitem__(self, index):
        name, text, _ = self._entries[index]
        return name, _text(text)

    @property
    def names(self):
        """The names, "" for unnamed properties."""
        return [name for name, _, _ in self._entries]

    @property
    def texts(self):
        """The property texts, the file's constants put in."""
        return [_text(text) for _, text, _ in self._entries]

    def error(self, index):
        """Why property ``index`` cannot be checked (a pmc.Error; a JANI
        property pmc cannot translate), or None."""
        text = self._entries[index][1]
        return text if isinstance(text, Error) else None

    def line(self, index):
        """The line property ``index`` starts on (from 1)."""
        return self._entries[index][2]

    def __repr__(self):
        return f"pmc.Properties({len(self._entries)} properties)"
