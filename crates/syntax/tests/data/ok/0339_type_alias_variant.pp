type Mymod::Ensure = Variant[Enum['present', 'absent'], Boolean]
