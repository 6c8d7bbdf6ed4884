# A title that is not a string, given to create_resources, keeps its text
# as the resource's name in the catalog.
define mrtest_d {}
create_resources('mrtest_d', { 81 => {}, 'x' => {} })
