//! The object identifiers the CA recognises: Puppet's arcs and short names
//! (as `lib/puppet/ssl/oids.rb` and puppetserver name them) and the standard
//! extensions it writes.

/// ppRegCertExt: registered extensions (`pp_role`, `pp_uuid`, ...).
pub(crate) const PP_REG_CERT_EXT: &[u64] = &[1, 3, 6, 1, 4, 1, 34380, 1, 1];
/// ppPrivCertExt: the private arc, free for sites to use.
pub(crate) const PP_PRIV_CERT_EXT: &[u64] = &[1, 3, 6, 1, 4, 1, 34380, 1, 2];
/// ppAuthCertExt: authorization extensions, signed only when allowed.
pub(crate) const PP_AUTH_CERT_EXT: &[u64] = &[1, 3, 6, 1, 4, 1, 34380, 1, 3];
/// pp_cli_auth: grants use of the CA's administrative API. Puppetserver puts
/// it on its own certificate and never signs it from a request.
pub(crate) const PP_CLI_AUTH: &[u64] = &[1, 3, 6, 1, 4, 1, 34380, 1, 3, 39];
/// subjectAltName.
pub(crate) const SUBJECT_ALT_NAME: &[u64] = &[2, 5, 29, 17];
/// extKeyUsage.
pub(crate) const EXT_KEY_USAGE: &[u64] = &[2, 5, 29, 37];
/// id-kp-serverAuth.
pub(crate) const SERVER_AUTH: &[u64] = &[1, 3, 6, 1, 5, 5, 7, 3, 1];
/// id-kp-clientAuth.
pub(crate) const CLIENT_AUTH: &[u64] = &[1, 3, 6, 1, 5, 5, 7, 3, 2];
/// Netscape comment, which Puppet sets on every certificate it signs.
pub(crate) const NETSCAPE_COMMENT: &[u64] = &[2, 16, 840, 1, 113730, 1, 13];

/// The text of the Netscape comment.
pub(crate) const NETSCAPE_COMMENT_VALUE: &str = "Puppet Server Internal Certificate";

/// Whether `oid` lies strictly below `arc`.
pub(crate) fn is_under(oid: &[u64], arc: &[u64]) -> bool {
    oid.len() > arc.len() && oid.starts_with(arc)
}

/// Dotted form of an OID.
pub(crate) fn dotted(oid: &[u64]) -> String {
    oid.iter().map(u64::to_string).collect::<Vec<_>>().join(".")
}

/// Puppet's short name of an OID of its arcs, as the status API shows
/// authorization extensions (`pp_authorization`, `pp_auth_role`).
pub(crate) fn short_name(oid: &[u64]) -> Option<&'static str> {
    if is_under(oid, PP_REG_CERT_EXT) && oid.len() == PP_REG_CERT_EXT.len() + 1 {
        return Some(match oid[PP_REG_CERT_EXT.len()] {
            1 => "pp_uuid",
            2 => "pp_instance_id",
            3 => "pp_image_name",
            4 => "pp_preshared_key",
            5 => "pp_cost_center",
            6 => "pp_product",
            7 => "pp_project",
            8 => "pp_application",
            9 => "pp_service",
            10 => "pp_employee",
            11 => "pp_created_by",
            12 => "pp_environment",
            13 => "pp_role",
            14 => "pp_software_version",
            15 => "pp_department",
            16 => "pp_cluster",
            17 => "pp_provisioner",
            18 => "pp_region",
            19 => "pp_datacenter",
            20 => "pp_zone",
            21 => "pp_network",
            22 => "pp_securitypolicy",
            23 => "pp_cloudplatform",
            24 => "pp_apptier",
            25 => "pp_hostname",
            26 => "pp_owner",
            _ => return None,
        });
    }
    if is_under(oid, PP_AUTH_CERT_EXT) && oid.len() == PP_AUTH_CERT_EXT.len() + 1 {
        return Some(match oid[PP_AUTH_CERT_EXT.len()] {
            1 => "pp_authorization",
            13 => "pp_auth_role",
            39 => "pp_cli_auth",
            _ => return None,
        });
    }
    None
}

/// The OID of one of Puppet's short names (`pp_role`), the inverse of
/// [`short_name`].
pub(crate) fn by_name(name: &str) -> Option<Vec<u64>> {
    [PP_REG_CERT_EXT, PP_AUTH_CERT_EXT].iter().find_map(|arc| {
        (1..=64).find_map(|last| {
            let oid: Vec<u64> = arc.iter().copied().chain([last]).collect();
            (short_name(&oid) == Some(name)).then_some(oid)
        })
    })
}
