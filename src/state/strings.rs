//! Every string value a serializable value holds (an event's names, reasons, sources...), visited
//! without formatting the value: `village sim` counts the scripts an event names this way on every event
//! of every game, where writing each event as JSON and scanning the text cost as much as a rule.
//!
//! The visit follows serde's data model, so it sees exactly the strings `serde_json` would write as string
//! values (struct field names and enum variant names are not visited: they are keys and tags).

use serde::ser::{self, Serialize};
use std::fmt;

/// Call `f` with every string value in `value`, in serialization order.
pub fn for_each_str<T: Serialize + ?Sized>(value: &T, f: &mut dyn FnMut(&str)) {
    // The visitor never fails; a `Serialize` impl that reports its own error stops the visit there.
    let _ = value.serialize(Strings { f });
}

/// The visitor: a serde `Serializer` that keeps nothing but hands strings to `f`.
struct Strings<'f, 'g> {
    f: &'f mut (dyn FnMut(&str) + 'g),
}

/// A visit never fails on its own.
#[derive(Debug)]
struct Never(String);

impl fmt::Display for Never {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(&self.0)
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Never(msg.to_string())
    }
}

impl<'f, 'g> Strings<'f, 'g> {
    fn again(&mut self) -> Strings<'_, 'g> {
        Strings { f: &mut *self.f }
    }
}

impl<'f, 'g> ser::Serializer for Strings<'f, 'g> {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, _: bool) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_i8(self, _: i8) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_i16(self, _: i16) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_i32(self, _: i32) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_i64(self, _: i64) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_u8(self, _: u8) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_u16(self, _: u16) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_u32(self, _: u32) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_u64(self, _: u64) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_f32(self, _: f32) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_f64(self, _: f64) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_char(self, c: char) -> Result<(), Never> {
        (self.f)(c.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, s: &str) -> Result<(), Never> {
        (self.f)(s);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Never> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Never> {
        // A unit variant is written as its name, a string value (`"recoil"`).
        (self.f)(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Never> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        v: &T,
    ) -> Result<(), Never> {
        v.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Never> {
        Ok(self)
    }
}

impl ser::SerializeSeq for Strings<'_, '_> {
    type Ok = ();
    type Error = Never;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
        v.serialize(self.again())
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

impl ser::SerializeTuple for Strings<'_, '_> {
    type Ok = ();
    type Error = Never;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
        v.serialize(self.again())
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Strings<'_, '_> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
        v.serialize(self.again())
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Strings<'_, '_> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
        v.serialize(self.again())
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

impl ser::SerializeMap for Strings<'_, '_> {
    type Ok = ();
    type Error = Never;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), Never> {
        // A map's keys are written as strings too (`{"Captain Maren": 1}`).
        k.serialize(self.again())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
        v.serialize(self.again())
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

impl ser::SerializeStruct for Strings<'_, '_> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Never> {
        v.serialize(self.again())
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

impl ser::SerializeStructVariant for Strings<'_, '_> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Never> {
        v.serialize(self.again())
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    #[serde(tag = "event", rename_all = "snake_case")]
    enum Probe {
        Spent {
            key: String,
            source: String,
            n: u32,
            list: Vec<(String, Option<String>)>,
        },
        Bare,
    }

    #[test]
    fn it_sees_the_strings_json_writes_as_values() {
        let e = Probe::Spent {
            key: "wave:Hex".into(),
            source: "scripts/alpha/hex.lua".into(),
            n: 3,
            list: vec![("a".into(), None), ("b".into(), Some("c".into()))],
        };
        let mut seen = Vec::new();
        for_each_str(&e, &mut |s| seen.push(s.to_string()));
        // The internal tag is a string value too.
        assert_eq!(
            seen,
            ["spent", "wave:Hex", "scripts/alpha/hex.lua", "a", "b", "c"]
        );
        let mut bare = Vec::new();
        for_each_str(&Probe::Bare, &mut |s| bare.push(s.to_string()));
        assert_eq!(bare, ["bare"]);
    }
}
