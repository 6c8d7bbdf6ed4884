type Mrtesttypes2::Mode = Pattern[/\A0[0-7]{3}\z/]
