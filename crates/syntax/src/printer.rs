//! Prints a tree back as Puppet source.
