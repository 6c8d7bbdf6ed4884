//! `dmi`: firmware, board, chassis and product data from
//! `/sys/class/dmi/id` (serial numbers and the UUID are readable by root
//! only).

use super::{Facts, Probe, object, text};

/// The DMI values Facter reads, blank ones absent.
#[derive(Default)]
pub(crate) struct Dmi {
    pub(crate) bios_date: Option<String>,
    pub(crate) bios_vendor: Option<String>,
    pub(crate) bios_version: Option<String>,
    pub(crate) board_asset_tag: Option<String>,
    pub(crate) board_vendor: Option<String>,
    pub(crate) board_name: Option<String>,
    pub(crate) board_serial: Option<String>,
    pub(crate) chassis_asset_tag: Option<String>,
    pub(crate) chassis_type: Option<String>,
    pub(crate) sys_vendor: Option<String>,
    pub(crate) product_name: Option<String>,
    pub(crate) product_serial: Option<String>,
    pub(crate) product_uuid: Option<String>,
}

/// SMBIOS chassis types (DSP0134, 7.4.1), numbered from 1.
const CHASSIS_TYPES: [Option<&str>; 32] = [
    Some("Other"),
    None,
    Some("Desktop"),
    Some("Low Profile Desktop"),
    Some("Pizza Box"),
    Some("Mini Tower"),
    Some("Tower"),
    Some("Portable"),
    Some("Laptop"),
    Some("Notebook"),
    Some("Hand Held"),
    Some("Docking Station"),
    Some("All in One"),
    Some("Sub Notebook"),
    Some("Space-Saving"),
    Some("Lunch Box"),
    Some("Main System Chassis"),
    Some("Expansion Chassis"),
    Some("SubChassis"),
    Some("Bus Expansion Chassis"),
    Some("Peripheral Chassis"),
    Some("Storage Chassis"),
    Some("Rack Mount Chassis"),
    Some("Sealed-Case PC"),
    Some("Multi-system"),
    Some("CompactPCI"),
    Some("AdvancedTCA"),
    Some("Blade"),
    Some("Blade Enclosure"),
    Some("Tablet"),
    Some("Convertible"),
    Some("Detachable"),
];

impl Dmi {
    pub(crate) fn read(probe: &Probe<'_>) -> Dmi {
        if !probe.system.root.is_dir("/sys/class/dmi") {
            return Dmi::default();
        }
        let read = |name: &str| probe.read_trimmed(&format!("/sys/class/dmi/id/{name}"));
        let chassis_type = read("chassis_type").and_then(|number| {
            // Ruby's to_i reads the leading digits (and 0 without any);
            // index -1 wraps to the last name.
            let digits: String = number.chars().take_while(char::is_ascii_digit).collect();
            let number: i64 = digits.parse().unwrap_or(0);
            let index = if number == 0 {
                CHASSIS_TYPES.len() - 1
            } else {
                usize::try_from(number - 1).ok()?
            };
            CHASSIS_TYPES
                .get(index)
                .copied()
                .flatten()
                .map(str::to_string)
        });
        Dmi {
            bios_date: read("bios_date"),
            bios_vendor: read("bios_vendor"),
            bios_version: read("bios_version"),
            board_asset_tag: read("board_asset_tag"),
            board_vendor: read("board_vendor"),
            board_name: read("board_name"),
            board_serial: read("board_serial"),
            chassis_asset_tag: read("chassis_asset_tag"),
            chassis_type,
            sys_vendor: read("sys_vendor"),
            product_name: read("product_name"),
            product_serial: read("product_serial"),
            product_uuid: read("product_uuid"),
        }
    }
}

pub(crate) fn collect(probe: &Probe<'_>, facts: &mut Facts) {
    let dmi = probe.dmi();
    let legacy = [
        ("bios_release_date", &dmi.bios_date),
        ("bios_vendor", &dmi.bios_vendor),
        ("bios_version", &dmi.bios_version),
        ("boardassettag", &dmi.board_asset_tag),
        ("boardmanufacturer", &dmi.board_vendor),
        ("boardproductname", &dmi.board_name),
        ("boardserialnumber", &dmi.board_serial),
        ("chassisassettag", &dmi.chassis_asset_tag),
        ("chassistype", &dmi.chassis_type),
        ("manufacturer", &dmi.sys_vendor),
        ("productname", &dmi.product_name),
        ("serialnumber", &dmi.product_serial),
        ("uuid", &dmi.product_uuid),
    ];
    for (name, value) in legacy {
        facts.legacy(name, text(value.clone()));
    }
    let value = object([
        (
            "bios",
            object([
                ("release_date", text(dmi.bios_date.clone())),
                ("vendor", text(dmi.bios_vendor.clone())),
                ("version", text(dmi.bios_version.clone())),
            ]),
        ),
        (
            "board",
            object([
                ("asset_tag", text(dmi.board_asset_tag.clone())),
                ("manufacturer", text(dmi.board_vendor.clone())),
                ("product", text(dmi.board_name.clone())),
                ("serial_number", text(dmi.board_serial.clone())),
            ]),
        ),
        (
            "chassis",
            object([
                ("asset_tag", text(dmi.chassis_asset_tag.clone())),
                ("type", text(dmi.chassis_type.clone())),
            ]),
        ),
        ("manufacturer", text(dmi.sys_vendor.clone())),
        (
            "product",
            object([
                ("name", text(dmi.product_name.clone())),
                ("serial_number", text(dmi.product_serial.clone())),
                ("uuid", text(dmi.product_uuid.clone())),
            ]),
        ),
    ]);
    facts.set("dmi", value);
}
