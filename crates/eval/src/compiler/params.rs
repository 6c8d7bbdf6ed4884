//! A resource's parameters in the compiler: names to values, in the order
//! set.
//!
//! A resource has a handful of parameters, and a catalog thousands of
//! resources. A list searched by name holds them in one allocation of the
//! exact size; a hash map would add its table to each resource and hash
//! every name set or looked up.

use super::Param;

#[derive(Clone, Debug, Default)]
pub(crate) struct Params(Vec<(String, Param)>);

impl Params {
    pub(crate) fn with_capacity(capacity: usize) -> Params {
        Params(Vec::with_capacity(capacity))
    }

    fn position(&self, name: &str) -> Option<usize> {
        self.0.iter().position(|(key, _)| key == name)
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Param> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, param)| param)
    }

    pub(crate) fn contains_key(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    /// Sets a parameter: in its place when it was set, last otherwise.
    /// Returns the value it replaces.
    pub(crate) fn insert(&mut self, name: String, param: Param) -> Option<Param> {
        match self.position(&name) {
            Some(at) => Some(std::mem::replace(&mut self.0[at].1, param)),
            None => {
                self.0.push((name, param));
                None
            }
        }
    }

    /// The parameter `name`, set with `make` when it is not.
    pub(crate) fn get_or_insert_with(
        &mut self,
        name: &str,
        make: impl FnOnce() -> Param,
    ) -> &mut Param {
        let at = match self.position(name) {
            Some(at) => at,
            None => {
                self.0.push((name.to_string(), make()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }

    /// Removes a parameter, keeping the others in order.
    pub(crate) fn shift_remove(&mut self, name: &str) -> Option<Param> {
        let at = self.position(name)?;
        Some(self.0.remove(at).1)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&String, &Param)> {
        self.0.iter().map(|(name, param)| (name, param))
    }

    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut Param> {
        self.0.iter_mut().map(|(_, param)| param)
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(key, _)| key)
    }
}

impl IntoIterator for Params {
    type Item = (String, Param);
    type IntoIter = std::vec::IntoIter<(String, Param)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Params {
    type Item = (&'a String, &'a Param);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, Param)>,
        fn(&'a (String, Param)) -> (&'a String, &'a Param),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(key, param)| (key, param))
    }
}

impl FromIterator<(String, Param)> for Params {
    /// Later values for a name replace earlier ones, in the earlier place.
    fn from_iter<I: IntoIterator<Item = (String, Param)>>(items: I) -> Params {
        let items = items.into_iter();
        let mut params = Params::with_capacity(items.size_hint().0);
        for (name, param) in items {
            params.insert(name, param);
        }
        params
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compiler::Source;
    use marionette_values::Value;

    fn param(value: i64) -> Param {
        Param {
            value: Value::Integer(value),
            source: Source::Main,
            file: "site.pp".into(),
            line: 1,
            append: false,
        }
    }

    fn values(params: &Params) -> Vec<(String, i64)> {
        params
            .into_iter()
            .map(|(name, param)| match param.value {
                Value::Integer(i) => (name.clone(), i),
                _ => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn parameters_keep_the_order_they_were_first_set_in() {
        let mut params: Params = [("a", 1), ("b", 2), ("a", 3)]
            .into_iter()
            .map(|(name, value)| (name.to_string(), param(value)))
            .collect();
        assert_eq!(values(&params), [("a".into(), 3), ("b".into(), 2)]);
        assert!(params.insert("c".into(), param(4)).is_none());
        assert!(matches!(
            params.insert("b".into(), param(5)).map(|p| p.value),
            Some(Value::Integer(2))
        ));
        params.get_or_insert_with("a", || param(9)).line = 7;
        params.get_or_insert_with("d", || param(6));
        assert_eq!(params.get("a").map(|p| p.line), Some(7));
        assert!(params.shift_remove("b").is_some());
        assert!(params.shift_remove("b").is_none());
        assert_eq!(
            values(&params),
            [("a".into(), 3), ("c".into(), 4), ("d".into(), 6)]
        );
        assert!(params.contains_key("d") && !params.contains_key("b"));
    }
}
