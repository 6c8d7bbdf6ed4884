//! The certificate authority itself: its files, and the operations that
//! change them. Every operation that changes files holds one mutex, so that
//! serial numbers, the inventory and the CRL stay consistent when the server
//! calls in from many threads; reads go to the files (written atomically) or
//! to state set once at opening.

use std::collections::HashSet;
use std::fs;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, RwLock};

use rcgen::{
    BasicConstraints, CertificateParams, CustomExtension, DistinguishedName, DnType, IsCa, Issuer,
    KeyIdMethod, KeyPair, KeyUsagePurpose, PublicKeyData, SanType, SerialNumber,
    SubjectPublicKeyInfo,
};
use time::{Duration, OffsetDateTime};

use crate::crl::{self, Crl};
use crate::csr::{self, AltNames, RawExtension, Request};
use crate::error::{CaError, io_error};
use crate::files::{self, PRIVATE_MODE, PUBLIC_MODE};
use crate::settings::{MAX_CA_TTL_SECONDS, Settings};
use crate::status::{self, CertificateState, CertificateStatus};
use crate::{autosign, der, inventory, keys, name, oids, serial};

/// What became of a submitted request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CsrOutcome {
    /// Stored in `requests/`, waiting for [`CertificateAuthority::sign`].
    Pending,
    /// Autosigned; the certificate is in `signed/`.
    Signed,
}

/// A key and certificate the CA made for a host (the server's own), as PEM.
#[derive(Debug, Clone)]
pub struct HostCertificate {
    /// The signed certificate.
    pub certificate_pem: String,
    /// The private key, PKCS#1 (`RSA PRIVATE KEY`).
    pub private_key_pem: String,
    /// The public key (`PUBLIC KEY`).
    pub public_key_pem: String,
}

impl HostCertificate {
    /// Writes the certificate and the key (mode 0600) atomically.
    pub fn write_to(&self, certificate: &Path, private_key: &Path) -> Result<(), CaError> {
        files::write_atomic(private_key, self.private_key_pem.as_bytes(), PRIVATE_MODE)?;
        files::write_atomic(certificate, self.certificate_pem.as_bytes(), PUBLIC_MODE)
    }
}

/// The outcome of a revocation.
struct Revocation {
    /// Certificates were found for the name.
    found: bool,
    /// Some were not yet on the CRL, which was re-signed.
    changed: bool,
}

/// The paths of Puppet's CA directory.
struct Paths {
    cadir: PathBuf,
    ca_crt: PathBuf,
    ca_key: PathBuf,
    ca_pub: PathBuf,
    ca_crl: PathBuf,
    serial: PathBuf,
    inventory: PathBuf,
    requests: PathBuf,
    signed: PathBuf,
    /// Locked while the CA's files change, by every process that opens the
    /// CA (the server, `marionette ca`, two of those at once).
    lock: PathBuf,
}

impl Paths {
    fn new(cadir: &Path) -> Paths {
        Paths {
            cadir: cadir.to_path_buf(),
            ca_crt: cadir.join("ca_crt.pem"),
            ca_key: cadir.join("ca_key.pem"),
            ca_pub: cadir.join("ca_pub.pem"),
            ca_crl: cadir.join("ca_crl.pem"),
            serial: cadir.join("serial"),
            inventory: cadir.join("inventory.txt"),
            requests: cadir.join("requests"),
            signed: cadir.join("signed"),
            lock: cadir.join(".lock"),
        }
    }

    fn request(&self, certname: &str) -> PathBuf {
        self.requests.join(format!("{certname}.pem"))
    }

    fn signed(&self, certname: &str) -> PathBuf {
        self.signed.join(format!("{certname}.pem"))
    }
}

/// Puppet's certificate authority over a CA directory (puppetserver's
/// `cadir`). See the crate documentation.
pub struct CertificateAuthority {
    paths: Paths,
    settings: Settings,
    issuer: Issuer<'static, KeyPair>,
    ca_cert_pem: String,
    /// The CA's SubjectPublicKeyInfo, to check the CRL's signature.
    ca_spki_der: Vec<u8>,
    /// The CA's subject key identifier, the CRL's authority key identifier.
    ca_key_id: Vec<u8>,
    /// Serialises every change to the files between this process's
    /// threads; `lock_file` does it between processes.
    write_lock: Mutex<()>,
    lock_file: fs::File,
    /// Revoked serials (normalized), for the TLS layer's checks.
    revoked: RwLock<HashSet<Vec<u8>>>,
    /// The CRL file as last read (inode, length, modification time), to
    /// notice another process's revocation.
    crl_seen: Mutex<FileStamp>,
}

/// What tells one version of a file from the next: atomic writes give a
/// new inode, and the time and length catch an editor's in-place write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileStamp {
    inode: u64,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl FileStamp {
    fn of(path: &Path) -> Result<FileStamp, CaError> {
        use std::os::unix::fs::MetadataExt;
        let meta = fs::metadata(path).map_err(io_error(path))?;
        Ok(FileStamp {
            inode: meta.ino(),
            len: meta.len(),
            modified: meta.modified().ok(),
        })
    }
}

/// The CA's files held for a change: the in-process mutex, then the
/// directory's lock file, released in the other order when dropped.
struct FilesLock<'a> {
    file: &'a fs::File,
    _threads: MutexGuard<'a, ()>,
}

impl Drop for FilesLock<'_> {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// SHA-1 of the public key bits: RFC 5280's first method, which Puppet's
/// key identifiers use.
fn key_id(public_key_bits: &[u8]) -> Vec<u8> {
    ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, public_key_bits)
        .as_ref()
        .to_vec()
}

fn validity(ttl_seconds: u64) -> (OffsetDateTime, OffsetDateTime) {
    let now = OffsetDateTime::now_utc();
    let ttl = i64::try_from(ttl_seconds).unwrap_or(i64::MAX);
    // Puppet back-dates certificates by a day so that agents with clocks
    // somewhat behind the CA accept them at once.
    (now - Duration::days(1), now + Duration::seconds(ttl))
}

fn crypto(what: impl Into<String>) -> impl FnOnce(rcgen::Error) -> CaError {
    let what = what.into();
    move |e| CaError::Crypto {
        what,
        reason: e.to_string(),
    }
}

fn netscape_comment() -> CustomExtension {
    CustomExtension::from_oid_content(
        oids::NETSCAPE_COMMENT,
        der::ia5_string(oids::NETSCAPE_COMMENT_VALUE),
    )
}

/// The CA's requests and certificates, counted ([`CertificateAuthority::counts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Requests waiting to be signed.
    pub requested: usize,
    /// Signed certificates not revoked (as far as the count can tell:
    /// certificates signed less serials revoked).
    pub signed: usize,
    /// Serials the CRL revokes, of certificates cleaned away too.
    pub revoked: usize,
}

impl CertificateAuthority {
    /// Opens the CA in `cadir`, which must exist: administering a CA
    /// never makes one as a side effect (a mistyped directory would
    /// otherwise get a new CA that no agent trusts).
    pub fn open(cadir: &Path, settings: Settings) -> Result<CertificateAuthority, CaError> {
        if !Self::exists_in(cadir) {
            return Err(CaError::NoAuthority {
                cadir: cadir.to_path_buf(),
            });
        }
        Self::open_or_create(cadir, settings)
    }

    /// Makes a new CA in `cadir` (`puppetserver ca setup`), refusing a
    /// directory that holds one already.
    pub fn create(cadir: &Path, settings: Settings) -> Result<CertificateAuthority, CaError> {
        if Self::exists_in(cadir) {
            return Err(CaError::AuthorityExists {
                cadir: cadir.to_path_buf(),
            });
        }
        Self::open_or_create(cadir, settings)
    }

    /// Whether `cadir` holds any of a CA's files (all of them, or some,
    /// which opening then refuses as a partial state).
    fn exists_in(cadir: &Path) -> bool {
        let paths = Paths::new(cadir);
        [
            &paths.ca_crt,
            &paths.ca_key,
            &paths.ca_crl,
            &paths.serial,
            &paths.inventory,
        ]
        .iter()
        .any(|path| path.exists())
    }

    /// Opens the CA in `cadir`, creating it on first use: an RSA key of
    /// `settings.key_length` bits, a self-signed CA certificate named
    /// `settings.ca_name`, an empty CRL, the `serial` file and the inventory,
    /// and the `requests/` and `signed/` directories. A directory holding
    /// some of the CA's files but not all is refused.
    pub fn open_or_create(
        cadir: &Path,
        settings: Settings,
    ) -> Result<CertificateAuthority, CaError> {
        if settings.ca_ttl_seconds == 0 || settings.ca_ttl_seconds > MAX_CA_TTL_SECONDS {
            return Err(CaError::InvalidSetting {
                name: "ca_ttl",
                reason: format!(
                    "Config setting ca_ttl must have a value below {MAX_CA_TTL_SECONDS} (and above 0), not {}",
                    settings.ca_ttl_seconds
                ),
            });
        }
        let paths = Paths::new(cadir);
        for dir in [&paths.cadir, &paths.requests, &paths.signed] {
            fs::create_dir_all(dir).map_err(io_error(dir))?;
        }
        let required = [
            &paths.ca_crt,
            &paths.ca_key,
            &paths.ca_crl,
            &paths.serial,
            &paths.inventory,
        ];
        let lock_file = {
            use std::os::unix::fs::OpenOptionsExt;
            // Readable by all, as the CA's certificate is: a user who may
            // read the CA (a server running as its own user after root
            // made the directory) locks it through a read-only descriptor,
            // which flock allows.
            fs::OpenOptions::new()
                .create(true)
                .append(true)
                .mode(files::PUBLIC_MODE)
                .open(&paths.lock)
                .or_else(|_| fs::File::open(&paths.lock))
                .map_err(io_error(&paths.lock))?
        };
        // Two processes starting on an empty directory must not make two
        // CAs, one overwriting the other's key.
        lock_file.lock().map_err(io_error(&paths.lock))?;
        let created = {
            let (found, missing): (Vec<&PathBuf>, Vec<&PathBuf>) =
                required.iter().partition(|p| p.exists());
            if found.is_empty() {
                Self::create_files(&paths, &settings)
            } else if !missing.is_empty() {
                Err(CaError::PartialState {
                    found: found.into_iter().cloned().collect(),
                    missing: missing.into_iter().cloned().collect(),
                })
            } else {
                Ok(())
            }
        };
        let _ = lock_file.unlock();
        created?;
        Self::load(paths, settings, lock_file)
    }

    fn create_files(paths: &Paths, settings: &Settings) -> Result<(), CaError> {
        let key = keys::generate(settings.key_length, "CA")?;
        let pub_bits = key.key_pair.public_key_raw().to_vec();
        serial::write(&paths.serial, 1)?;
        let serial_number = serial::take(&paths.serial)?;
        let (not_before, not_after) = validity(settings.ca_ttl_seconds);
        let mut params = CertificateParams::default();
        params.not_before = not_before;
        params.not_after = not_after;
        params.serial_number = Some(SerialNumber::from_slice(&serial::to_bytes(serial_number)));
        params.distinguished_name = DistinguishedName::new();
        params
            .distinguished_name
            .push(DnType::CommonName, settings.ca_name.as_str());
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        params.key_identifier_method = KeyIdMethod::PreSpecified(key_id(&pub_bits));
        params.use_authority_key_identifier_extension = true;
        params.custom_extensions = vec![netscape_comment()];
        let cert = params
            .self_signed(&key.key_pair)
            .map_err(crypto("self-sign the CA certificate"))?;
        let issuer = Issuer::from_ca_cert_der(cert.der(), key.key_pair)
            .map_err(crypto("read back the CA certificate"))?;
        let crl_pem = crl::sign(&Crl::default(), &issuer, &key_id(&pub_bits))?;
        inventory::append(
            &paths.inventory,
            &inventory::line(
                serial_number,
                not_before,
                not_after,
                &format!("CN={}", settings.ca_name),
            ),
        )?;
        files::write_atomic(&paths.ca_pub, key.public_pem.as_bytes(), PUBLIC_MODE)?;
        files::write_atomic(&paths.ca_key, key.private_pem.as_bytes(), PRIVATE_MODE)?;
        files::write_atomic(&paths.ca_crt, cert.pem().as_bytes(), PUBLIC_MODE)?;
        files::write_atomic(&paths.ca_crl, crl_pem.as_bytes(), PUBLIC_MODE)
    }

    fn load(
        paths: Paths,
        settings: Settings,
        lock_file: fs::File,
    ) -> Result<CertificateAuthority, CaError> {
        let key_pem = files::read(&paths.ca_key)?;
        let key = keys::load(&key_pem).map_err(|reason| CaError::CorruptFile {
            path: paths.ca_key.clone(),
            reason,
        })?;
        let ca_cert_pem = files::read(&paths.ca_crt)?;
        let corrupt_cert = |reason: String| CaError::CorruptFile {
            path: paths.ca_crt.clone(),
            reason,
        };
        let ca_der = csr::pem_to_der(&ca_cert_pem, &["CERTIFICATE"]).map_err(corrupt_cert)?;
        let (_, cert) = x509_parser::parse_x509_certificate(&ca_der)
            .map_err(|e| corrupt_cert(e.to_string()))?;
        let spki = &cert.tbs_certificate.subject_pki;
        if spki.subject_public_key.data.as_ref() != key.key_pair.public_key_raw() {
            return Err(corrupt_cert(format!(
                "does not match the private key in {}",
                paths.ca_key.display()
            )));
        }
        let ca_key_id = cert
            .extensions()
            .iter()
            .find_map(|e| match e.parsed_extension() {
                x509_parser::extensions::ParsedExtension::SubjectKeyIdentifier(id) => {
                    Some(id.0.to_vec())
                }
                _ => None,
            })
            .unwrap_or_else(|| key_id(spki.subject_public_key.data.as_ref()));
        let ca_spki_der = spki.raw.to_vec();
        let issuer = Issuer::from_ca_cert_der(&ca_der.clone().into(), key.key_pair)
            .map_err(|e| corrupt_cert(e.to_string()))?;
        let crl_seen = FileStamp::of(&paths.ca_crl)?;
        let crl = crl::read(&paths.ca_crl, &ca_spki_der)?;
        let revoked = crl.entries.iter().map(|e| e.serial.clone()).collect();
        Ok(CertificateAuthority {
            paths,
            settings,
            issuer,
            ca_cert_pem,
            ca_spki_der,
            ca_key_id,
            write_lock: Mutex::new(()),
            lock_file,
            revoked: RwLock::new(revoked),
            crl_seen: Mutex::new(crl_seen),
        })
    }

    /// Holds the CA's files for a change. Serial numbers, the inventory and
    /// the CRL are read and rewritten under it, so two signers (threads or
    /// processes) never take the same serial.
    fn lock(&self) -> Result<FilesLock<'_>, CaError> {
        // A panic in another thread cannot leave the files half-changed (each
        // write is atomic), so a poisoned lock is still safe to take.
        let threads = self.write_lock.lock().unwrap_or_else(|p| p.into_inner());
        // The kernel releases the lock when a holder dies, so a crashed
        // signer never blocks the CA.
        self.lock_file.lock().map_err(io_error(&self.paths.lock))?;
        Ok(FilesLock {
            file: &self.lock_file,
            _threads: threads,
        })
    }

    /// Takes in a CRL another process wrote (`marionette ca revoke` while
    /// the server runs): `true` when the file changed since the CA last
    /// read it, and the revoked serials are now the new file's. A stat when
    /// nothing changed, so it may be asked before every handshake.
    pub fn refresh_crl(&self) -> Result<bool, CaError> {
        let stamp = FileStamp::of(&self.paths.ca_crl)?;
        let mut seen = self.crl_seen.lock().unwrap_or_else(|p| p.into_inner());
        if *seen == stamp {
            return Ok(false);
        }
        let crl = crl::read(&self.paths.ca_crl, &self.ca_spki_der)?;
        *self.revoked.write().unwrap_or_else(|p| p.into_inner()) =
            crl.entries.into_iter().map(|e| e.serial).collect();
        *seen = stamp;
        Ok(true)
    }

    /// The settings the CA was opened with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The CA directory.
    pub fn cadir(&self) -> &Path {
        &self.paths.cadir
    }

    /// The CA certificate, PEM (`ca_crt.pem`).
    pub fn ca_certificate_pem(&self) -> &str {
        &self.ca_cert_pem
    }

    /// The CRL, PEM (`ca_crl.pem`).
    pub fn crl_pem(&self) -> Result<String, CaError> {
        files::read(&self.paths.ca_crl)
    }

    /// The signed certificate of `certname`, if there is one.
    pub fn certificate_pem(&self, certname: &str) -> Result<Option<String>, CaError> {
        name::validate_certname(certname)?;
        files::read_optional(&self.paths.signed(certname))
    }

    /// The pending request of `certname`, if there is one.
    pub fn csr_pem(&self, certname: &str) -> Result<Option<String>, CaError> {
        name::validate_certname(certname)?;
        files::read_optional(&self.paths.request(certname))
    }

    /// Whether a certificate serial (big-endian bytes, leading zeros
    /// allowed) is on the CRL, for the TLS layer to refuse revoked clients.
    pub fn is_revoked(&self, serial: &[u8]) -> bool {
        let serial = crl::normalize_serial(serial);
        self.revoked
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&serial)
    }

    /// The state of `certname`, refusing a duplicate unless allowed.
    fn check_duplicate(&self, certname: &str) -> Result<(), CaError> {
        if self.settings.allow_duplicate_certs {
            return Ok(());
        }
        let state = if let Some(pem) = files::read_optional(&self.paths.signed(certname))? {
            let revoked = self
                .certificate_serial(&self.paths.signed(certname), &pem)
                .map(|s| self.is_revoked(&s))
                .unwrap_or(false);
            Some(if revoked { "revoked" } else { "signed" })
        } else if self.paths.request(certname).exists() {
            Some("requested")
        } else {
            None
        };
        match state {
            Some(state) => Err(CaError::Duplicate {
                certname: certname.to_string(),
                state: state.to_string(),
            }),
            None => Ok(()),
        }
    }

    fn certificate_serial(&self, path: &Path, pem: &str) -> Result<Vec<u8>, CaError> {
        let corrupt = |reason: String| CaError::CorruptFile {
            path: path.to_path_buf(),
            reason,
        };
        let der = csr::pem_to_der(pem, &["CERTIFICATE"]).map_err(corrupt)?;
        let (_, cert) =
            x509_parser::parse_x509_certificate(&der).map_err(|e| corrupt(e.to_string()))?;
        Ok(crl::normalize_serial(cert.raw_serial()))
    }

    /// Submits the request `pem` for `certname`, as an agent does with
    /// `PUT certificate_request/<certname>`. The name must follow Puppet's
    /// syntax and equal the request's CN, the request's signature must
    /// verify, and no request or certificate may exist for the name (unless
    /// `allow_duplicate_certs`). The request is stored in `requests/`; when
    /// the autosign policy says so it is then checked as [`Self::sign`]
    /// checks it and signed.
    pub fn submit_csr(&self, certname: &str, pem: &str) -> Result<CsrOutcome, CaError> {
        name::validate_certname(certname)?;
        let request = csr::parse_request(certname, pem)?;
        {
            let _guard = self.lock()?;
            self.check_duplicate(certname)?;
            name::validate_subject(certname, &request.common_name)?;
            // Puppetserver checks the signature only when it signs; a request
            // whose signature fails is refused here so that a forged request
            // never sits in the queue.
            request.check_key(certname)?;
            files::write_atomic(&self.paths.request(certname), pem.as_bytes(), PUBLIC_MODE)?;
        }
        // The policy program may be slow; it runs without the lock.
        if !autosign::should_autosign(&self.settings.autosign, certname, pem)? {
            return Ok(CsrOutcome::Pending);
        }
        let _guard = self.lock()?;
        self.sign_locked(certname, &request)?;
        Ok(CsrOutcome::Signed)
    }

    /// Signs the pending request of `certname` and returns the certificate
    /// (PEM), refusing requests that ask for subject alternative names or
    /// authorization extensions the settings do not allow, extensions
    /// outside Puppet's arcs, or whose signature does not verify.
    pub fn sign(&self, certname: &str) -> Result<String, CaError> {
        name::validate_certname(certname)?;
        let _guard = self.lock()?;
        let path = self.paths.request(certname);
        let pem = files::read_optional(&path)?.ok_or_else(|| CaError::NoRequest {
            certname: certname.to_string(),
        })?;
        let request = csr::parse_request(certname, &pem)?;
        name::validate_subject(certname, &request.common_name)?;
        self.sign_locked(certname, &request)
    }

    /// Puppetserver's checks before signing, in its order.
    fn check_policy(&self, certname: &str, request: &Request) -> Result<(), CaError> {
        let names = request.alt_names.prefixed();
        let names: Vec<String> = names
            .into_iter()
            .chain(request.alt_names.other.iter().cloned())
            .collect();
        let only_cn = names.len() == 1 && names[0] == format!("DNS:{certname}");
        if !names.is_empty() && !self.settings.allow_subject_alt_names && !only_cn {
            return Err(CaError::DisallowedAltNames {
                certname: certname.to_string(),
                names: names
                    .into_iter()
                    .filter(|n| *n != format!("DNS:{certname}"))
                    .collect(),
            });
        }
        if !self.settings.allow_authorization_extensions
            && request
                .extensions
                .iter()
                .any(|e| oids::is_under(&e.oid, oids::PP_AUTH_CERT_EXT))
        {
            return Err(CaError::DisallowedAuthorizationExtension {
                certname: certname.to_string(),
            });
        }
        let refused: Vec<String> = request
            .extensions
            .iter()
            .filter(|e| !allowed_extension(&e.oid))
            .map(|e| oids::dotted(&e.oid))
            .collect();
        if !refused.is_empty() {
            return Err(CaError::DisallowedExtensions {
                certname: certname.to_string(),
                oids: refused,
            });
        }
        validate_alt_names(certname, &request.alt_names)?;
        request.check_key(certname)
    }

    /// Signs `request`; the caller holds the lock.
    fn sign_locked(&self, certname: &str, request: &Request) -> Result<String, CaError> {
        self.check_policy(certname, request)?;
        let mut alt_names = request.alt_names.clone();
        // Puppetserver always lists the certname among the DNS names, as
        // RFC 2818 clients look only there.
        if !alt_names.dns.iter().any(|d| d == certname) {
            alt_names.dns.push(certname.to_string());
        }
        let extra: Vec<RawExtension> = request
            .extensions
            .iter()
            .filter(|e| e.oid != oids::SUBJECT_ALT_NAME)
            .cloned()
            .collect();
        let public_key = SubjectPublicKeyInfo::from_der(&request.spki_der)
            .map_err(crypto(format!("read the public key of {certname}")))?;
        let pem = self.issue(
            certname,
            &public_key,
            &request.public_key_bits,
            &alt_names,
            &extra,
        )?;
        files::remove_optional(&self.paths.request(certname))?;
        Ok(pem)
    }

    /// Makes, records and stores a certificate; the caller holds the lock.
    fn issue(
        &self,
        certname: &str,
        public_key: &impl PublicKeyData,
        public_key_bits: &[u8],
        alt_names: &AltNames,
        extensions: &[RawExtension],
    ) -> Result<String, CaError> {
        let serial_number = serial::take(&self.paths.serial)?;
        let (not_before, not_after) = validity(self.settings.ca_ttl_seconds);
        let mut params = CertificateParams::default();
        params.not_before = not_before;
        params.not_after = not_after;
        params.serial_number = Some(SerialNumber::from_slice(&serial::to_bytes(serial_number)));
        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::CommonName, certname);
        params.is_ca = IsCa::ExplicitNoCa;
        params.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyEncipherment,
        ];
        params.key_identifier_method = KeyIdMethod::PreSpecified(key_id(public_key_bits));
        params.use_authority_key_identifier_extension = true;
        for ip in &alt_names.ip {
            params.subject_alt_names.push(SanType::IpAddress(*ip));
        }
        for dns in &alt_names.dns {
            let ia5 = dns
                .clone()
                .try_into()
                .map_err(|_| CaError::InvalidAltName {
                    certname: certname.to_string(),
                    message: format!("Subject alternative name is not ASCII: {dns}"),
                })?;
            params.subject_alt_names.push(SanType::DnsName(ia5));
        }
        // rcgen marks extended key usage non-critical; Puppet marks it
        // critical, so it is written by hand.
        let mut eku = CustomExtension::from_oid_content(
            oids::EXT_KEY_USAGE,
            der::sequence(&[der::oid(oids::SERVER_AUTH), der::oid(oids::CLIENT_AUTH)]),
        );
        eku.set_criticality(true);
        params.custom_extensions = vec![netscape_comment(), eku];
        for ext in extensions {
            let mut custom = CustomExtension::from_oid_content(&ext.oid, ext.value.clone());
            custom.set_criticality(ext.critical);
            params.custom_extensions.push(custom);
        }
        let cert = params
            .signed_by(public_key, &self.issuer)
            .map_err(crypto(format!("sign the certificate for {certname}")))?;
        let pem = cert.pem();
        files::write_atomic(&self.paths.signed(certname), pem.as_bytes(), PUBLIC_MODE)?;
        inventory::append(
            &self.paths.inventory,
            &inventory::line(
                serial_number,
                not_before,
                not_after,
                &format!("CN={certname}"),
            ),
        )?;
        Ok(pem)
    }

    /// Generates a key and a certificate for `certname` signed by this CA,
    /// as puppetserver does for itself (and `puppetserver ca generate` for
    /// others): subject alternative names are `dns_alt_names` (each `name`,
    /// `DNS:name` or `IP:address`) plus the certname, or `puppet` and the
    /// certname when none are given. With `ca_client` the certificate
    /// carries `pp_cli_auth`, which lets its holder administer the CA over
    /// the API (the server's own certificate, `puppetserver ca generate
    /// --ca-client`); other certificates are plain agents'. It is stored
    /// in `signed/` and the inventory like any other.
    pub fn issue_host_certificate(
        &self,
        certname: &str,
        dns_alt_names: &[&str],
        ca_client: bool,
    ) -> Result<HostCertificate, CaError> {
        name::validate_certname(certname)?;
        let mut alt_names = AltNames::default();
        for entry in dns_alt_names
            .iter()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
        {
            if let Some(ip) = entry.strip_prefix("IP:") {
                let ip: IpAddr = ip.parse().map_err(|_| CaError::InvalidAltName {
                    certname: certname.to_string(),
                    message: format!("Invalid IP address in alt names: {ip}"),
                })?;
                alt_names.ip.push(ip);
            } else {
                let dns = entry.strip_prefix("DNS:").unwrap_or(entry);
                alt_names.dns.push(dns.to_string());
            }
        }
        if alt_names.dns.is_empty() && alt_names.ip.is_empty() {
            alt_names.dns.push("puppet".to_string());
        }
        if !alt_names.dns.iter().any(|d| d == certname) {
            alt_names.dns.push(certname.to_string());
        }
        validate_alt_names(certname, &alt_names)?;
        let key = keys::generate(self.settings.key_length, &format!("{certname} host"))?;
        let cli_auth: Vec<RawExtension> = ca_client
            .then(|| RawExtension {
                oid: oids::PP_CLI_AUTH.to_vec(),
                critical: false,
                value: der::utf8_string("true"),
            })
            .into_iter()
            .collect();
        let _guard = self.lock()?;
        self.check_duplicate(certname)?;
        let certificate_pem = self.issue(
            certname,
            &key.key_pair,
            key.key_pair.public_key_raw(),
            &alt_names,
            &cli_auth,
        )?;
        Ok(HostCertificate {
            certificate_pem,
            private_key_pem: key.private_pem,
            public_key_pem: key.public_pem,
        })
    }

    /// Revokes the certificates of `certname`: the one in `signed/` and any
    /// unexpired one the inventory lists for the name. The CRL is re-signed
    /// with its number incremented; revoking twice changes nothing.
    pub fn revoke(&self, certname: &str) -> Result<(), CaError> {
        name::validate_certname(certname)?;
        let _guard = self.lock()?;
        if self.revoke_locked(certname)?.found {
            Ok(())
        } else {
            Err(CaError::NotSigned {
                certname: certname.to_string(),
            })
        }
    }

    /// Revokes; says whether certificates were found and whether the CRL
    /// changed.
    fn revoke_locked(&self, certname: &str) -> Result<Revocation, CaError> {
        let mut serials: Vec<Vec<u8>> =
            inventory::serials_for(&self.paths.inventory, certname, OffsetDateTime::now_utc())?
                .into_iter()
                .map(serial::to_bytes)
                .collect();
        let signed = self.paths.signed(certname);
        if let Some(pem) = files::read_optional(&signed)? {
            serials.push(self.certificate_serial(&signed, &pem)?);
        }
        if serials.is_empty() {
            return Ok(Revocation {
                found: false,
                changed: false,
            });
        }
        let mut crl = crl::read(&self.paths.ca_crl, &self.ca_spki_der)?;
        let now = OffsetDateTime::now_utc();
        let mut changed = false;
        for serial in serials {
            if !crl.entries.iter().any(|e| e.serial == serial) {
                crl.entries.push(crl::Entry {
                    serial,
                    revoked_at: now,
                    reason: Some(rcgen::RevocationReason::KeyCompromise),
                });
                changed = true;
            }
        }
        if changed {
            crl.number += 1;
            let pem = crl::sign(&crl, &self.issuer, &self.ca_key_id)?;
            files::write_atomic(&self.paths.ca_crl, pem.as_bytes(), PUBLIC_MODE)?;
            let mut revoked = self.revoked.write().unwrap_or_else(|p| p.into_inner());
            revoked.extend(crl.entries.into_iter().map(|e| e.serial));
        }
        Ok(Revocation {
            found: true,
            changed,
        })
    }

    /// Revokes the certificate of `certname` if there is one, then deletes
    /// its certificate and its request, as `puppetserver ca clean` does.
    pub fn clean(&self, certname: &str) -> Result<(), CaError> {
        name::validate_certname(certname)?;
        let _guard = self.lock()?;
        let revoked = self.revoke_locked(certname)?.changed;
        let removed_cert = files::remove_optional(&self.paths.signed(certname))?;
        let removed_request = files::remove_optional(&self.paths.request(certname))?;
        if revoked || removed_cert || removed_request {
            Ok(())
        } else {
            Err(CaError::NotFound {
                certname: certname.to_string(),
            })
        }
    }

    /// The status of `certname`: its certificate if signed, else its request.
    pub fn certificate_status(&self, certname: &str) -> Result<CertificateStatus, CaError> {
        name::validate_certname(certname)?;
        let signed = self.paths.signed(certname);
        if let Some(pem) = files::read_optional(&signed)? {
            return self.cert_status(certname, &signed, &pem);
        }
        let request = self.paths.request(certname);
        if let Some(pem) = files::read_optional(&request)? {
            return request_status(certname, &request, &pem);
        }
        Err(CaError::NotFound {
            certname: certname.to_string(),
        })
    }

    /// The statuses of all requests and certificates, or of those in
    /// `state`, sorted by name (requests first when unfiltered).
    /// How many requests wait, how many certificates stand signed, and
    /// how many serials the CRL revokes: counted from the directories and
    /// the CRL in memory, without reading each certificate, so that a
    /// status or metrics scrape costs the same however large the fleet.
    pub fn counts(&self) -> Result<Counts, CaError> {
        let revoked = self.revoked.read().unwrap_or_else(|p| p.into_inner()).len();
        let signed = pem_files(&self.paths.signed)?.len();
        Ok(Counts {
            requested: pem_files(&self.paths.requests)?.len(),
            signed: signed.saturating_sub(revoked),
            revoked,
        })
    }

    pub fn certificate_statuses(
        &self,
        state: Option<CertificateState>,
    ) -> Result<Vec<CertificateStatus>, CaError> {
        let mut out = Vec::new();
        if matches!(state, None | Some(CertificateState::Requested)) {
            for (certname, path) in pem_files(&self.paths.requests)? {
                if let Some(pem) = files::read_optional(&path)? {
                    out.push(request_status(&certname, &path, &pem)?);
                }
            }
        }
        if state != Some(CertificateState::Requested) {
            for (certname, path) in pem_files(&self.paths.signed)? {
                if let Some(pem) = files::read_optional(&path)? {
                    let status = self.cert_status(&certname, &path, &pem)?;
                    if state.is_none_or(|s| s == status.state) {
                        out.push(status);
                    }
                }
            }
        }
        Ok(out)
    }

    fn cert_status(
        &self,
        certname: &str,
        path: &Path,
        pem: &str,
    ) -> Result<CertificateStatus, CaError> {
        let corrupt = |reason: String| CaError::CorruptFile {
            path: path.to_path_buf(),
            reason,
        };
        let der = csr::pem_to_der(pem, &["CERTIFICATE"]).map_err(corrupt)?;
        let (_, cert) =
            x509_parser::parse_x509_certificate(&der).map_err(|e| corrupt(e.to_string()))?;
        let mut alt_names = AltNames::default();
        for ext in cert.extensions() {
            csr::collect_alt_names(ext, &mut alt_names);
        }
        let raw = csr::raw_extensions(cert.extensions());
        let serial_bytes = crl::normalize_serial(cert.raw_serial());
        let state = if self.is_revoked(&serial_bytes) {
            CertificateState::Revoked
        } else {
            CertificateState::Signed
        };
        let fingerprints = status::fingerprints(&der);
        Ok(CertificateStatus {
            name: certname.to_string(),
            state,
            fingerprint: fingerprints.sha256.clone(),
            fingerprints,
            dns_alt_names: alt_names.dns.iter().map(|d| format!("DNS:{d}")).collect(),
            subject_alt_names: alt_names.prefixed(),
            authorization_extensions: csr::authorization_extensions(&raw),
            serial_number: Some(
                serial::from_bytes(&serial_bytes)
                    .ok_or_else(|| corrupt("serial number longer than 16 bytes".to_string()))?,
            ),
            not_before: Some(inventory::format_time(
                cert.validity().not_before.to_datetime(),
            )),
            not_after: Some(inventory::format_time(
                cert.validity().not_after.to_datetime(),
            )),
        })
    }
}

fn request_status(certname: &str, path: &Path, pem: &str) -> Result<CertificateStatus, CaError> {
    let request = csr::parse_request(certname, pem).map_err(|e| CaError::CorruptFile {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    let fingerprints = status::fingerprints(&request.der);
    Ok(CertificateStatus {
        name: certname.to_string(),
        state: CertificateState::Requested,
        fingerprint: fingerprints.sha256.clone(),
        fingerprints,
        dns_alt_names: request
            .alt_names
            .dns
            .iter()
            .map(|d| format!("DNS:{d}"))
            .collect(),
        subject_alt_names: request.alt_names.prefixed(),
        authorization_extensions: csr::authorization_extensions(&request.extensions),
        serial_number: None,
        not_before: None,
        not_after: None,
    })
}

/// `<certname>.pem` files of a directory with valid certnames, sorted.
fn pem_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, CaError> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_error(dir))? {
        let entry = entry.map_err(io_error(dir))?;
        let file_name = entry.file_name();
        let Some(certname) = file_name.to_str().and_then(|n| n.strip_suffix(".pem")) else {
            continue;
        };
        if name::validate_certname(certname).is_ok() {
            out.push((certname.to_string(), entry.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// Puppetserver's `allowed-extension?`: subjectAltName and Puppet's three
/// arcs, except `pp_cli_auth`, which only the CA grants.
fn allowed_extension(oid: &[u64]) -> bool {
    oid == oids::SUBJECT_ALT_NAME
        || (oids::is_under(oid, oids::PP_AUTH_CERT_EXT) && oid != oids::PP_CLI_AUTH)
        || oids::is_under(oid, oids::PP_REG_CERT_EXT)
        || oids::is_under(oid, oids::PP_PRIV_CERT_EXT)
}

/// Only DNS and IP names, and no wildcards.
fn validate_alt_names(certname: &str, names: &AltNames) -> Result<(), CaError> {
    if !names.other.is_empty() {
        return Err(CaError::InvalidAltName {
            certname: certname.to_string(),
            message: "Only DNS and IP names are allowed in the Subject Alternative Names extension"
                .to_string(),
        });
    }
    if let Some(wild) = names.dns.iter().find(|d| d.contains('*')) {
        return Err(CaError::InvalidAltName {
            certname: certname.to_string(),
            message: format!(
                "Cert subjectAltName contains a wildcard, which is not allowed: {wild}"
            ),
        });
    }
    Ok(())
}

// The server shares one CA between its threads.
const _: fn() = || {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<CertificateAuthority>();
};
