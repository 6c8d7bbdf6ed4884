@user { 'mrtest-g1': groups => ['mrtest-wheel', 'mrtest-adm'] }
@user { 'mrtest-g2': groups => ['mrtest-adm'] }
@user { 'mrtest-g3': groups => 'mrtest-wheel' }
User <| groups == 'mrtest-wheel' |>
