//! Properties files (PRISM's .props/.pctl layout) read by libpmc
//! (`pmc_properties_*`), exactly as `pmc check --property-file` reads them.
use std::path::Path;

use crate::{c_path, c_string, copy_str, error, must, sys, Result};

/// One property of a properties file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Property {
    /// "" when unnamed; from `"name": P=? [...]`.
    pub name: String,
    /// The property with the file's constants put in, ready for
    /// [`Model::check`](crate::Model::check).
    pub text: String,
    /// The line it starts on, from 1.
    pub line: u64,
}

/// The properties of one file, in file order. Copied out of libpmc when
/// read, so it holds no C handle: plain data, `Send + Sync`.
///
/// ```no_run
/// # fn main() -> pmc::Result<()> {
/// let model = pmc::Model::load("examples/die/die.tra")?;
/// for (name, text) in &pmc::Properties::read("die.props", Some("N=3"))? {
///     println!("{name}: {}", model.check(text, None)?.initial_value());
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Properties {
    properties: Vec<Property>,
}

/// Frees the C handle whatever happens while it is copied.
struct Handle(*mut sys::pmc_properties);

impl Drop for Handle {
    fn drop(&mut self) {
        ffi!(sys::pmc_properties_free(self.0));
    }
}

impl Properties {
    /// Reads the properties file at `path`. `constants` ("N=3,K=2") gives the
    /// values of constants the file declares without one (`const int N;`).
    /// Errors: [`ErrorKind::Io`](crate::ErrorKind::Io) when it cannot be
    /// read, [`ErrorKind::Parse`](crate::ErrorKind::Parse) (message
    /// "FILE:LINE: ...") when it is malformed.
    pub fn read(path: impl AsRef<Path>, constants: Option<&str>) -> Result<Properties> {
        let path = c_path(path.as_ref())?;
        let constants = constants.map(|c| c_string(c, "constants")).transpose()?;
        let mut handle = std::ptr::null_mut();
        error::check(ffi!(sys::pmc_properties_read(
            path.as_ptr(),
            constants.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
            &mut handle
        )))?;
        Ok(Properties::copy(Handle(handle)))
    }

    /// Reads `text` as the contents of a properties file; `source_name`
    /// names it in messages (default "<text>").
    pub fn parse(text: &str, source_name: Option<&str>, constants: Option<&str>) -> Result<Properties> {
        let text = c_string(text, "text")?;
        let source_name = source_name.map(|s| c_string(s, "source name")).transpose()?;
        let constants = constants.map(|c| c_string(c, "constants")).transpose()?;
        let mut handle = std::ptr::null_mut();
        error::check(ffi!(sys::pmc_properties_parse(
            text.as_ptr(),
            source_name.as_ref().map_or(std::ptr::null(), |s| s.as_ptr()),
            constants.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
            &mut handle
        )))?;
        Ok(Properties::copy(Handle(handle)))
    }

    fn copy(handle: Handle) -> Properties {
        let mut count = 0u64;
        must(error::check(ffi!(sys::pmc_properties_count(handle.0, &mut count))));
        let properties = (0..count)
            .map(|index| {
                let (mut name, mut text, mut line) = (std::ptr::null(), std::ptr::null(), 0u64);
                must(error::check(ffi!(sys::pmc_properties_name(handle.0, index, &mut name))));
                must(error::check(ffi!(sys::pmc_properties_text(handle.0, index, &mut text))));
                must(error::check(ffi!(sys::pmc_properties_line(handle.0, index, &mut line))));
                // Valid until the handle is freed, after this copy.
                Property { name: unsafe { copy_str(name) }, text: unsafe { copy_str(text) }, line }
            })
            .collect();
        Properties { properties }
    }

    /// How many properties the file holds (at least 1).
    pub fn len(&self) -> usize {
        self.properties.len()
    }

    /// Never true for a file that was read (an empty file is an error).
    pub fn is_empty(&self) -> bool {
        self.properties.is_empty()
    }

    /// The properties with their names, texts and lines.
    pub fn as_slice(&self) -> &[Property] {
        &self.properties
    }

    /// `(name, text)` pairs in file order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.properties.iter().map(|p| (p.name.as_str(), p.text.as_str()))
    }
}

impl<'a> IntoIterator for &'a Properties {
    type Item = (&'a str, &'a str);
    type IntoIter = Box<dyn Iterator<Item = (&'a str, &'a str)> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}
