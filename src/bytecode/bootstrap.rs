//! What a class's method handles and bootstrap methods say: which methods its lambdas and
//! method references run, under which functional methods (`LambdaMetafactory`'s arguments),
//! and which handles each bootstrap method takes.

use super::constpool::{arity, not_a, ClassFormatError, Const, InvokeKind, MemberRef, Pool};
use super::constpool::{Reader, Sam};
use std::collections::HashMap;

/// The entries of `classfile::ClassFile`'s `handles`, `handle_sams` and
/// `bootstrap_handles`.
pub(super) type Handles = (
    Vec<Option<(InvokeKind, MemberRef)>>,
    Vec<Option<Vec<Sam>>>,
    Vec<Vec<usize>>,
);

/// A class's method handles (methods only; `None` for one that writes a field), the functional
/// methods each implements, and per bootstrap method the handles among its arguments.
pub(super) fn handles(
    pool: &Pool,
    bootstraps: &[(u16, Vec<u16>)],
) -> Result<Handles, ClassFormatError> {
    let bodies = lambda_bodies(pool, bootstraps)?;
    let mut handles = Vec::new();
    let mut handle_sams = Vec::new();
    // Pool index of a method handle → its entry in `handles`.
    let mut handle_at: HashMap<usize, usize> = HashMap::new();
    for (pi, c) in pool.0.iter().enumerate() {
        if let Const::MethodHandle(kind, index) = *c {
            handle_at.insert(pi, handles.len());
            let sams = u16::try_from(pi)
                .ok()
                .and_then(|pi| bodies.get(&pi).cloned().flatten());
            let kind = match kind {
                1 | 2 => {
                    // A field getter: no entry in `handles`.
                    handle_at.remove(&pi);
                    continue;
                }
                3 | 4 => {
                    handles.push(None);
                    handle_sams.push(sams);
                    continue;
                }
                5 => InvokeKind::Virtual,
                6 => InvokeKind::Static,
                7 | 8 => InvokeKind::Special,
                9 => InvokeKind::Interface,
                _ => return Err(ClassFormatError::HandleKind(kind)),
            };
            handles.push(Some((kind, pool.member(index)?)));
            handle_sams.push(sams);
        }
    }
    let bootstrap_handles = bootstraps
        .iter()
        .map(|(_, args)| {
            args.iter()
                .filter_map(|&a| handle_at.get(&usize::from(a)).copied())
                .collect()
        })
        .collect();
    Ok((handles, handle_sams, bootstrap_handles))
}

/// What `LambdaMetafactory` makes of one class's bootstrap methods: per pool index of a
/// `CONSTANT_MethodHandle`, the functional method names it implements, or `None` when the
/// handle is used in any other way.
fn lambda_bodies(
    pool: &Pool,
    bootstraps: &[(u16, Vec<u16>)],
) -> Result<HashMap<u16, Option<Vec<Sam>>>, ClassFormatError> {
    let mut uses: HashMap<u16, Option<Vec<Sam>>> = HashMap::new();
    let mut names: HashMap<usize, Vec<(String, String)>> = HashMap::new();
    for c in &pool.0 {
        if let Const::InvokeDynamic(b, nat) = *c {
            let Const::NameAndType(name, desc) = pool.get(nat)? else {
                return Err(not_a(nat, "NameAndType"));
            };
            let made = pool.utf8(*desc)?.rsplit(')').next().unwrap_or_default();
            let interface = made.trim_start_matches('L').trim_end_matches(';');
            let name = pool.utf8(*name)?.to_string();
            names
                .entry(usize::from(b))
                .or_default()
                .push((interface.to_string(), name));
        }
    }
    for (bi, (method, args)) in bootstraps.iter().enumerate() {
        uses.insert(*method, None);
        let lambda = match pool.get(*method)? {
            Const::MethodHandle(_, m) => {
                pool.member(*m)?.owner == "java/lang/invoke/LambdaMetafactory"
            }
            _ => false,
        };
        let arity = match args.first().map(|&a| pool.get(a)).transpose()? {
            Some(Const::MethodType(d)) => arity(pool.utf8(*d)?).unwrap_or(usize::MAX),
            _ => usize::MAX,
        };
        let sams: Vec<Sam> = names
            .get(&bi)
            .into_iter()
            .flatten()
            .map(|(interface, name)| Sam {
                interface: interface.clone(),
                name: name.clone(),
                arity,
            })
            .collect();
        for &a in args {
            if !matches!(pool.get(a)?, Const::MethodHandle(..)) {
                continue;
            }
            match uses.entry(a).or_insert_with(|| Some(Vec::new())) {
                Some(found) if lambda => found.extend(sams.iter().cloned()),
                e => *e = None,
            }
        }
    }
    Ok(uses)
}

/// The `BootstrapMethods` attribute among a class's attributes: per bootstrap method, its
/// method handle and its static arguments (pool indices).
pub(super) fn read_class_attributes(
    r: &mut Reader,
    pool: &Pool,
) -> Result<Vec<(u16, Vec<u16>)>, ClassFormatError> {
    let mut bootstraps = Vec::new();
    for _ in 0..r.u2()? {
        let attribute = pool.utf8(r.u2()?)?;
        let len = r.u4()? as usize;
        let body = r.take(len)?;
        if attribute != "BootstrapMethods" {
            continue;
        }
        let mut b = Reader {
            bytes: body,
            pos: 0,
        };
        for _ in 0..b.u2()? {
            let method = b.u2()?;
            let args = (0..b.u2()?).map(|_| b.u2()).collect::<Result<_, _>>()?;
            bootstraps.push((method, args));
        }
    }
    Ok(bootstraps)
}
